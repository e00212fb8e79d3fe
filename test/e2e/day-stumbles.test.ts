import type { Page } from 'playwright-core';
import { maxWorkbookBytes } from '../../shared/contract/import';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { closedPort } from '../helpers/closed-port';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The service cell of the row with this client number. */
const serviceOf = (page: Page, clientNumber: string) =>
  page.getByTestId('order-row').filter({ hasText: clientNumber }).locator('td').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''));

describe('browser mode: a shop\'s whole day in Russian, the small stumbles (#15)', () => {
  let session: Session;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    page = session.page;
  });
  afterAll(() => session?.close());

  it('a brand-new shop\'s first order is offered number 1001, and the hint says where the count starts', async () => {
    await page.getByTestId('new-order-button').click();
    const form = page.getByTestId('order-form');
    await expect.poll(() => form.getByTestId('order-fields').getByRole('textbox').first().inputValue()).toBe('1001');
    await expect(form.getByTestId('number-offered').textContent()).resolves.toBe('Первый заказ: нумерация начинается с 1001. Есть свои номера — впишите свой.');
    await screenshot(page, 'day-first-order-number');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('the orders list names a service connected after the window loaded, not by its key "cdek"', async () => {
    const { app } = session.running;
    const shop = await app.desktopContext();
    // The list has loaded its services (the sandbox's) before CDEK is connected through the core.
    const first = await app.dispatch('orders.create', shop, orderPayload('ПЕСОК-1'));
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    await page.getByTestId('order-row').filter({ hasText: 'ПЕСОК-1' }).waitFor();
    const port = await closedPort();
    await app.services.connections.create({ providerKey: 'cdek', name: 'СДЭК склад', testMode: true, baseUrl: `http://127.0.0.1:${port}` });
    const created = await app.dispatch('orders.create', shop, orderPayload('ДВЕРЬ-7', (o) => Object.assign(o.order, { providerKey: 'cdek', tariffId: 139 })));
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await page.getByTestId('order-row').filter({ hasText: 'ДВЕРЬ-7' }).waitFor();
    await expect.poll(() => serviceOf(page, 'ДВЕРЬ-7'), { timeout: 10_000 }).toContainEqual(expect.stringMatching(/^СДЭК/));
    expect(await serviceOf(page, 'ДВЕРЬ-7')).not.toContain('cdek');
    await screenshot(page, 'day-list-new-service-named');
  });

  it('the import takes the workbook it states («до 30 МБ») in the browser window too: the command body holds it, a larger one is the file check\'s', async () => {
    await page.getByTestId('nav-import').click();
    const limit = page.getByText(/^Книга Excel \(\.xlsx\) до \d+ МБ/);
    await expect(limit.textContent()).resolves.toMatch(/до 30 МБ/);
    await screenshot(page, 'day-import-limit');
    const { running } = session;
    const preview = (bytes: number) =>
      fetch(`${running.base}/app/commands/import.preview`, {
        method: 'POST',
        headers: { Authorization: `Session ${running.ownerSession}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ file: { base64: Buffer.alloc(bytes, 0x41).toString('base64'), name: 'заказы.xlsx' } }),
      });
    const atLimit = await preview(maxWorkbookBytes);
    expect(atLimit.status).toBe(200);
    // Read by the core (not a workbook at all), not refused as a body too large.
    await expect(atLimit.json()).resolves.toMatchObject({ ok: false, error: { description: expect.not.stringMatching(/larger than|too large/i) } });
    const over = await preview(maxWorkbookBytes + 1);
    expect(over.status).toBe(200);
    await expect(over.json()).resolves.toMatchObject({ ok: false, error: { description: expect.stringMatching(/largest workbook|larger than/i) } });
  });
});
