import type { Locator, Page } from 'playwright-core';

/** Steps of the order form shared by the browser tests (English labels). */

/** A label exactly, with or without the asterisk of a required field. */
export const labelled = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

/** Fills a text box found by its label inside a part of the form. */
export const fill = (scope: Locator, label: string, value: string) => scope.getByLabel(labelled(label)).fill(value);

/** Number, recipient, one place with one item, assessed value; the sender is typed (no profile yet) or left to the profile. */
export async function fillOrder(page: Page, o: { number: string; recipient: string; city: string; sender?: boolean }) {
  const form = page.getByTestId('order-form');
  await fill(form.getByTestId('order-fields'), 'Order number', o.number);
  const recipient = form.getByTestId('recipient-fields');
  await fill(recipient, 'Name', o.recipient);
  await fill(recipient, 'Phone', '+79219876543');
  await fill(recipient, 'City', o.city);
  await fill(recipient, 'Street', 'Невский проспект');
  await fill(recipient, 'House', '28');
  const place = form.getByTestId('place-card').first();
  await fill(place, 'Weight, g', '1200');
  await fill(place, 'Length, cm', '30');
  await fill(place, 'Width, cm', '20');
  await fill(place, 'Height, cm', '10');
  const item = form.getByTestId('item-row').first();
  await fill(item, 'Description', 'Футболка');
  await fill(item, 'Qty', '2');
  await fill(item, 'Price, ₽', '1500');
  await fill(form.getByTestId('cost-fields'), 'Assessed value, ₽', '3000');
  if (o.sender) {
    const sender = form.getByTestId('sender-fields');
    await fill(sender, 'Name', 'Иван Петров');
    await fill(sender, 'Phone', '+79161234567');
    await fill(sender, 'City', 'Москва');
  }
}

