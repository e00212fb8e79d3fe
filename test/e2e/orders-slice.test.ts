import type { Page } from 'playwright-core';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { fillOrder, labelled } from './order-form-steps';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The whole form by hand: the service and the tariff chosen from their selects, not from the price table. */
async function fillOrderForm(page: Page, clientNumber: string) {
  await fillOrder(page, { number: clientNumber, recipient: 'Анна Смирнова', city: 'Санкт-Петербург', sender: true });
  const form = page.getByTestId('order-form');
  await form.getByTestId('service-select').click();
  await page.getByRole('option', { name: /Экспресс|Express/ }).first().click();
  await form.getByTestId('tariff-select').click();
  await page.getByRole('option', { name: /· 103$/ }).click();
  // A prepaid order: the cash on delivery typed over the items' total.
  await form.getByLabel(labelled('Cash on delivery, ₽')).fill('0');
}

describe('browser mode: the orders page', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openBrowserMode();
  });
  afterAll(() => session?.close());

  it('creates an order through the form and shows it in the list, registered with the service', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    await fillOrderForm(page, 'WEB-1001');
    await screenshot(page, 'order-form-filled');
    await page.getByTestId('submit-order').click();

    const row = page.getByTestId('order-row').filter({ hasText: 'WEB-1001' });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.textContent()).resolves.toMatch(/Анна Смирнова/);
    // The outbox runs in browser mode: the sandbox service registers the order and the row updates.
    await page.getByTestId('order-row').filter({ hasText: /SBE\d{9}/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'orders-slice');

    const stored = await session.running.app.services.orders.list({ companyId: (await session.running.app.desktopContext()).companyId }, { limit: 10, offset: 0 });
    expect(stored.rows.map((r) => r.clientNumber)).toEqual(['WEB-1001']);
    expect(session.pageErrors()).toEqual([]);
  });

  it('shows field errors in the user\'s language and creates nothing', async () => {
    const { page } = session;
    await page.getByTestId('new-order-button').click();
    await page.getByTestId('submit-order').click();
    await page.locator('[data-testid="order-form"] [aria-invalid="true"]').first().waitFor();
    await screenshot(page, 'order-form-errors');
    const invalid = await page.locator('[data-testid="order-form"] [aria-invalid="true"]').count();
    expect(invalid).toBeGreaterThan(3);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('order-row').count()).resolves.toBe(1);
  });
});

describe('browser mode in Russian', () => {
  it('speaks Russian when the system language is Russian, and switches to English on request', async () => {
    const session = await openBrowserMode({ locale: 'ru-RU' });
    try {
      const { page } = session;
      await page.getByTestId('new-order-button').waitFor();
      await expect(page.getByTestId('new-order-button').textContent()).resolves.toMatch(/Новый заказ/);
      await screenshot(page, 'orders-empty-ru');
      await page.getByTestId('language-switch').getByText('EN').click();
      await expect(page.getByTestId('new-order-button').textContent()).resolves.toMatch(/New order/);
    } finally {
      await session.close();
    }
  });
});
