import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openBrowserMode, screenshot } from '../helpers/browser';
import { orderPayload } from '../helpers/payloads';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** The client numbers of the rows on screen, top to bottom. */
const shownNumbers = (page: Page) =>
  page.getByTestId('order-row').evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(2)')?.textContent ?? ''));

/** Waits until the table shows exactly these orders in this order. */
async function expectRows(page: Page, numbers: string[]) {
  await expect.poll(() => shownNumbers(page), { timeout: 10_000 }).toEqual(numbers);
}

const row = (page: Page, clientNumber: string) => page.getByTestId('order-row').filter({ hasText: clientNumber });

describe('browser mode: the orders list', () => {
  let session: Session;
  const recipients: Array<[string, string, string, number]> = [
    ['LST-001', 'Анна Смирнова', '+79161112233', 2990.5],
    ['LST-002', 'Борис Иванов', '+79265554433', 0],
    ['LST-003', 'Вера Петрова', '+79037778899', 3500],
    ['LST-004', 'Глеб Сидоров', '+79104445566', 0],
    ['LST-005', 'Дарья Кузнецова', '+79851234567', 3100],
  ];

  beforeAll(async () => {
    session = await openBrowserMode();
    const { app } = session.running;
    const shop = (await app.desktopContext());
    for (const [clientNumber, name, phone, cod] of recipients) {
      await app.services.orders.create(
        shop,
        orderCreateSchema.parse(
          orderPayload(clientNumber, (p) => {
            p.recipient.contactName = name;
            p.recipient.phone = phone;
            p.cost.codCost = cod;
          }),
        ),
      );
    }
    // The first order was made in January, long before the others.
    app.sqlite.prepare("UPDATE orders SET created_at = ? WHERE client_number = 'LST-001'").run(new Date(2026, 0, 15, 10, 0).getTime());
    await session.page.reload();
  });
  afterAll(() => session?.close());

  it('shows the orders newest first and sorts by a column header, both ways', async () => {
    const { page } = session;
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
    await expect(page.getByTestId('orders-count').textContent()).resolves.toBe('Orders: 5');
    await page.getByTestId('sort-clientNumber').click();
    await expectRows(page, ['LST-001', 'LST-002', 'LST-003', 'LST-004', 'LST-005']);
    await page.getByTestId('sort-clientNumber').click();
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
    // Largest cash on delivery first; equal amounts newest first.
    await page.getByTestId('sort-cod').click();
    await expectRows(page, ['LST-003', 'LST-005', 'LST-001', 'LST-004', 'LST-002']);
    await expect(page.getByTestId('column-cod').getAttribute('aria-sort')).resolves.toBe('descending');
    await page.getByTestId('sort-created').click();
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
  });

  it('searches by name, phone and number, and says when nothing matches', async () => {
    const { page } = session;
    const search = page.getByTestId('search-input');
    await search.fill('смирн');
    await expectRows(page, ['LST-001']);
    await search.fill('+7 (926) 555');
    await expectRows(page, ['LST-002']);
    await search.fill('LST-00');
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
    await search.fill('нет такого');
    await page.getByTestId('orders-empty').waitFor();
    await search.press('Escape');
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
    // Ctrl+F brings the focus back to the search from anywhere.
    await page.getByTestId('orders-table').focus();
    await page.keyboard.press('Control+F');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('search-input');
  });

  it('filters by cash on delivery and by created dates, and resets the filters', async () => {
    const { page } = session;
    await page.getByTestId('filter-cod').getByText('Without').click();
    await expectRows(page, ['LST-004', 'LST-002']);
    await page.getByTestId('filter-cod').getByText('With COD').click();
    await expectRows(page, ['LST-005', 'LST-003', 'LST-001']);
    await page.getByTestId('filter-date-to').fill('2026-01-31');
    await expectRows(page, ['LST-001']);
    // A range that ends before it starts is pointed out and not applied.
    await page.getByTestId('filter-date-from').fill('2026-02-10');
    await page.getByText('The start date is after the end date').waitFor();
    await page.getByTestId('filter-clear').click();
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
  });

  it('remembers the chosen columns', async () => {
    const { page } = session;
    await expect(page.getByTestId('column-phone').count()).resolves.toBe(0);
    await page.getByTestId('columns-button').click();
    await page.getByTestId('column-toggle-phone').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('column-phone').waitFor();
    await page.reload();
    await page.getByTestId('column-phone').waitFor();
    await expect(row(page, 'LST-002').textContent()).resolves.toContain('+79265554433');
  });

  it('moves through the rows by keyboard, checks with Space and opens an order with Enter', async () => {
    const { page } = session;
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
    await page.getByTestId('orders-table').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect(row(page, 'LST-004').getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('Space');
    await expect(row(page, 'LST-004').getAttribute('aria-selected')).resolves.toBe('false');
    await page.keyboard.press('Enter');
    // The drawer opens at once with "Loading the order…"; the order follows when orders.get answers (slowly on a busy machine).
    await page.getByTestId('order-detail').locator('#order-detail-title').filter({ hasText: 'LST-004' }).waitFor();
    // Escape closes the drawer once it holds the focus (it takes it when its opening transition ends).
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="order-detail"]')))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.mantine-Drawer-overlay').count()).toBe(0);
  });

  it('cancels two checked orders at once, shows the result, and the list shows them canceled', async () => {
    const { page } = session;
    await row(page, 'LST-002').getByTestId('row-checkbox').click();
    await row(page, 'LST-003').getByTestId('row-checkbox').click();
    await expect(page.getByTestId('selected-count').textContent()).resolves.toBe('Selected: 2');
    await screenshot(page, 'orders-list');
    await page.getByTestId('bulk-cancel').click();
    await page.getByTestId('bulk-confirm-confirm').click();
    await page.getByTestId('bulk-result-ok').waitFor();
    await expect(page.getByTestId('bulk-result-ok').textContent()).resolves.toBe('Done: 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.locator('.mantine-Modal-overlay').count()).toBe(0);
    for (const n of ['LST-002', 'LST-003']) {
      await expect.poll(() => row(page, n).locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 }).toBe('deliveryCanceled');
    }
    await expect(row(page, 'LST-004').locator('[data-status]').getAttribute('data-status')).resolves.not.toBe('deliveryCanceled');
    await expect(page.getByTestId('bulk-bar').count()).resolves.toBe(0);
  });

  it('filters by status and exports the filtered orders to an xlsx file with their rows', async () => {
    const { page } = session;
    await page.getByTestId('filter-status').click();
    await page.getByRole('option', { name: 'Canceled' }).click();
    await page.keyboard.press('Escape');
    await expectRows(page, ['LST-003', 'LST-002']);
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-xlsx').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^orders-\d{8}-\d{4}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0].slice(0, 2)).toEqual(['Order number', 'ShipDesk ID']);
    expect(rows.slice(1).map((r) => [r[0], r[4], r[6]])).toEqual([
      ['LST-003', 'Canceled', 'Вера Петрова'],
      ['LST-002', 'Canceled', 'Борис Иванов'],
    ]);
    await page.getByTestId('filter-clear').click();
    await expectRows(page, ['LST-005', 'LST-004', 'LST-003', 'LST-002', 'LST-001']);
  });

  it('selects a range with Shift+click and the loaded rows with the header checkbox; speaks Russian', async () => {
    const { page } = session;
    await row(page, 'LST-005').getByTestId('row-checkbox').click();
    await row(page, 'LST-003').getByTestId('row-checkbox').click({ modifiers: ['Shift'] });
    await expect(page.getByTestId('selected-count').textContent()).resolves.toBe('Selected: 3');
    await page.getByTestId('select-all').click();
    await expect(page.getByTestId('selected-count').textContent()).resolves.toBe('Selected: 5');
    await page.getByTestId('select-all').click();
    await expect(page.getByTestId('bulk-bar').count()).resolves.toBe(0);

    await row(page, 'LST-004').getByTestId('row-checkbox').click();
    await page.getByTestId('language-switch').getByText('RU').click();
    await expect(page.getByTestId('selected-count').textContent()).resolves.toBe('Выбрано: 1');
    await expect(page.getByTestId('orders-count').textContent()).resolves.toBe('Заказов: 5');
    await screenshot(page, 'orders-list-ru');
    expect(session.pageErrors()).toEqual([]);
  });
});

describe('browser mode: a long orders list', () => {
  it('keeps only the rows in view in the page and fetches the others as the user scrolls to them', async () => {
    const session = await openBrowserMode();
    try {
      const { app } = session.running;
      const shop = (await app.desktopContext());
      const add = app.sqlite.prepare(
        `INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name, recipient_phone,
           cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (?, ?, 'sandbox-express', 'active', 'uploaded', ?, 'Покупатель', '+79160000000', 0, 0, '{}', ?, ?)`,
      );
      const start = Date.now() - 1_000_000;
      app.sqlite.transaction(() => {
        for (let i = 1; i <= 450; i++) add.run(shop.companyId, `BIG-${String(i).padStart(3, '0')}`, start + i, start + i, start + i);
      })();
      const { page } = session;
      await page.reload();
      await expect.poll(() => page.getByTestId('orders-count').textContent()).toBe('Orders: 450');
      await row(page, 'BIG-450').waitFor();
      // Virtualized: a few dozen rows in the page, not 450.
      expect(await page.getByTestId('order-row').count()).toBeLessThan(80);
      await page.getByTestId('orders-table').focus();
      await page.keyboard.press('End');
      await row(page, 'BIG-001').waitFor();
      await expect(row(page, 'BIG-001').getAttribute('class')).resolves.toContain('sd-row-focused');
      expect(await row(page, 'BIG-450').count()).toBe(0);
      // The header stays in view above the last rows.
      await expect(page.getByTestId('sort-clientNumber').isVisible()).resolves.toBe(true);
      expect(session.pageErrors()).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
