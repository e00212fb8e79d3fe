import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { openBrowserMode, screenshot, screenshotDir } from '../helpers/browser';
import { crop, decodeBarcode, renderPage } from '../helpers/printed-pages';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** Saves the first page of a PDF as a PNG beside the screenshots, for people to look at. */
function savePagePng(pdf: Uint8Array, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', file, join(screenshotDir, name)]);
}

describe('browser mode: the shipping day — labels for a selection, the act and the handover', () => {
  let session: Session;
  const numbers = new Map<string, string>();

  beforeAll(async () => {
    session = await openBrowserMode();
    await session.page.addInitScript(keepBlobs);
    const { app } = session.running;
    const shop = await app.desktopContext(); // the window is the shop's owner
    for (let i = 1; i <= 10; i++) {
      const created = await app.dispatch('orders.create', shop, await sandboxPayload(app.db, i % 2 ? 'sandbox-express' : 'sandbox-post', `SHIP-${String(i).padStart(2, '0')}`));
      if (!created.ok) throw new Error(JSON.stringify(created.error));
    }
    await app.outbox.drain();
    for (const row of await app.db.selectFrom('orders').select(['client_number', 'provider_number']).execute()) numbers.set(row.client_number, row.provider_number ?? '');
  }, 60_000);
  afterAll(async () => session?.close());

  it('select 10 orders → Print labels: one PDF with the 10 labels, in the list\'s order, each scanning to its service number', async () => {
    const { page } = session;
    await page.reload();
    await page.getByTestId('order-row').first().waitFor();
    await expect(page.getByTestId('not-handed-over').count()).resolves.toBe(10);
    await page.getByTestId('select-all').check();
    const shown = await page.getByTestId('order-row').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    const listOrder = shown.map((text) => /SHIP-\d\d/.exec(text)![0]);

    const pdf = await openedPdf(page, () => page.getByTestId('bulk-labels').click());
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(10);
    expect(doc.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual(Array(10).fill([283, 425]));
    for (const i of [0, 9]) expect(decodeBarcode(crop(renderPage(pdf, i + 1), { x: 0, y: 0.08, width: 1, height: 0.25 }), 'code128')).toBe(numbers.get(listOrder[i]));
    savePagePng(pdf, 'label-thermal');
    expect(session.pageErrors()).toEqual([]);
  });

  it('Settings → Печать: A4 from the second quarter is remembered and used', async () => {
    const { page } = session;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-print').click();
    await page.getByTestId('print-layout-a4').click();
    await page.getByTestId('print-quarter-2').click();
    await screenshot(page, 'settings-print');
    await page.reload();
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-tab-print').click();
    await expect(page.getByTestId('print-quarter-2').isChecked()).resolves.toBe(true);

    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').first().waitFor();
    await page.getByTestId('select-all').check();
    const sheets = await openedPdf(page, () => page.getByTestId('bulk-labels').click());
    const pdf = await PDFDocument.load(sheets);
    // Quarters 2–4 of the first sheet, then 4 + 3 on the next two sheets: 3 A4 pages.
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual(Array(3).fill([595, 842]));
    savePagePng(sheets, 'label-a4-from-quarter-2');
    await page.getByTestId('bulk-clear').click();
  });

  it('Dispatch: the groups with their totals → the act → mark handed over; the orders leave the screen and lose the flag', async () => {
    const { page } = session;
    await page.getByTestId('nav-dispatch').click();
    const groups = page.getByTestId('dispatch-group');
    const express = page.locator('[data-testid="dispatch-group"][data-provider="sandbox-express"]');
    await express.waitFor();
    await expect(groups.count()).resolves.toBe(2);
    await expect(express.getByTestId('dispatch-order').count()).resolves.toBe(5);
    await expect(express.getByTestId('dispatch-totals').textContent()).resolves.toMatch(/Orders: 5 · places: 5/);
    await screenshot(page, 'dispatch');

    const act = await openedPdf(page, () => express.getByTestId('dispatch-act').click());
    savePagePng(act, 'act');
    expect((await PDFDocument.load(act)).getPageCount()).toBe(1);

    await express.getByTestId('dispatch-hand-over').click();
    await page.getByTestId('dispatch-confirm-confirm').click();
    await express.waitFor({ state: 'detached' });
    await expect(groups.count()).resolves.toBe(1);

    await page.getByTestId('nav-orders').click();
    await page.getByTestId('order-row').first().waitFor();
    await expect.poll(() => page.getByTestId('not-handed-over').count()).toBe(5); // the list reloads on the orders.changed event
    await page.getByTestId('order-row').filter({ hasText: 'SHIP-01' }).click();
    await expect(page.getByTestId('timeline-handover').textContent()).resolves.toMatch(/Handed over to the service, act № \d{8}-sandbox-express/);
    expect(session.pageErrors()).toEqual([]);
  });

  it('an order canceled since is named in the print warning in the window\'s language: English, then Russian (no English left)', async () => {
    const { page, running } = session;
    const shop = await running.app.desktopContext();
    const created = await running.app.dispatch('orders.create', shop, await sandboxPayload(running.app.db, 'sandbox-express', 'SHIP-11'));
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    await running.app.outbox.drain();
    const row = await running.app.db.selectFrom('orders').select('id').where('client_number', '=', 'SHIP-11').executeTakeFirstOrThrow();
    const canceled = await running.app.dispatch('orders.cancel', shop, { orderId: String(row.id) });
    expect(canceled.ok, JSON.stringify(canceled)).toBe(true);
    await running.app.outbox.drain();

    await page.keyboard.press('Escape'); // the order opened above
    const printTwo = async () => {
      await page.reload();
      await page.getByTestId('nav-orders').click();
      await page.getByTestId('order-row').filter({ hasText: 'SHIP-11' }).waitFor();
      for (const n of ['SHIP-11', 'SHIP-04']) await page.getByTestId('order-row').filter({ hasText: n }).getByRole('checkbox').check();
      await openedPdf(page, () => page.getByTestId('bulk-labels').click()); // SHIP-04's label still prints
      return page.getByTestId('toast').filter({ hasText: String(row.id) });
    };
    const english = await printTwo();
    await expect(english.textContent()).resolves.toBe(`Not printed: 1Order ${row.id} is canceled: a canceled order is not printed`);
    await screenshot(page, 'print-canceled-order-en');

    await page.getByTestId('bulk-clear').click();
    await page.getByTestId('language-switch').getByText('RU').click();
    const russian = await printTwo();
    await expect(russian.first().textContent()).resolves.toBe(`Не напечатано: 1Заказ ${row.id} отменён: отменённые заказы не печатаются`);
    await screenshot(page, 'print-canceled-order-ru');
    await page.getByTestId('language-switch').getByText('EN').click();
    expect(session.pageErrors()).toEqual([]);
  });
});
