import type { Page } from 'playwright-core';

/**
 * Fills the new-order form (already open) with a valid door-to-door order of the sandbox express
 * service, as a user would: by the visible labels.
 */
export async function fillOrderForm(page: Page, clientNumber: string) {
  const form = page.getByTestId('order-form');
  await form.getByLabel('Order number').fill(clientNumber);
  for (const [group, name, phone, city] of [
    ['recipient', 'Анна Смирнова', '+79219876543', 'Санкт-Петербург'],
    ['sender', 'Иван Петров', '+79161234567', 'Москва'],
  ]) {
    const section = form.getByTestId(`${group}-fields`);
    await section.getByRole('textbox', { name: /^Name\b/ }).fill(name);
    await section.getByRole('textbox', { name: /^Phone\b/ }).fill(phone);
    await section.getByRole('textbox', { name: /^City\b/ }).fill(city);
    await section.getByRole('textbox', { name: /^Street\b/ }).fill('Невский проспект');
    await section.getByRole('textbox', { name: /^House\b/ }).fill('28');
  }
  await form.getByLabel('Weight, g').first().fill('1200');
  const item = form.getByTestId('item-row').first();
  await item.getByLabel('Description').fill('Футболка');
  await item.getByLabel('Qty').fill('2');
  await item.getByLabel('Price, ₽').fill('1000');
  await form.getByLabel('Assessed value, ₽').fill('2000');
  await form.getByTestId('service-select').click();
  await page.getByRole('option', { name: /Экспресс|Express/ }).first().click();
  await form.getByLabel('Tariff ID').click();
  await page.getByRole('option', { name: /· 103$/ }).click();
}
