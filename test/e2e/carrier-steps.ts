import type { Locator, Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import type { openBrowserMode } from '../helpers/browser';
import { keepBlobs, openedPdf } from '../helpers/opened-pdf';

/** Steps the browser tests of the delivery services share: connecting one, choosing its points, printing its label. */

type Running = Awaited<ReturnType<typeof openBrowserMode>>['running'];

/** Settings → connections → add: the dialog with the service chosen (by its name as the window shows it). */
export async function newConnection(page: Page, service: Locator | ((dialog: Locator) => Locator)): Promise<Locator> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-connections').click();
  await page.getByTestId('connection-add').click();
  const dialog = page.getByTestId('connection-dialog');
  await (typeof service === 'function' ? service(dialog) : service).click();
  return dialog;
}

/** Fills the connection's name, its fields (by field name) and the fake's address. */
export async function fillConnection(dialog: Locator, values: { name: string; baseUrl: string; fields?: Record<string, string> }) {
  await dialog.getByTestId('connection-name').fill(values.name);
  for (const [field, value] of Object.entries(values.fields ?? {})) await dialog.getByTestId(`connection-field-${field}`).fill(value);
  await dialog.getByTestId('connection-baseUrl').fill(values.baseUrl);
}

/** Saves the dialog and waits for it to close. */
export async function saveConnection(dialog: Locator) {
  await dialog.getByTestId('connection-save').click();
  await dialog.waitFor({ state: 'detached' });
}

/** "Test connection" on the named connection's row: whether it passed, and what the window said. */
export async function testConnection(page: Page, name: string): Promise<{ ok: string | null; message: string | null }> {
  const row = page.getByTestId('connection-row').filter({ hasText: name });
  await row.getByTestId('connection-test').click();
  const result = row.getByTestId('connection-test-result');
  await result.waitFor();
  return { ok: await result.getAttribute('data-ok'), message: await row.getByTestId('connection-test-message').textContent() };
}

/** The drop-off point the parcel is handed over at: the first one offered, unless the form chose one already. */
export async function chooseDropOff(form: Locator) {
  const dropOff = form.getByTestId('dropoff-picker');
  if (!(await dropOff.getByTestId('dropoff-chosen').isVisible())) {
    await dropOff.getByTestId('dropoff-option').first().click();
    await dropOff.getByTestId('dropoff-chosen').waitFor();
  }
}

/** The first pickup point of the picker, chosen; its id in the lists. */
export async function choosePickupPoint(page: Page): Promise<number> {
  const picker = page.getByTestId('point-picker');
  await picker.getByTestId('point-option').first().click();
  await picker.getByTestId('point-chosen').waitFor();
  return Number(await picker.getByTestId('point-chosen').getAttribute('data-point-id'));
}

/** The order with the shop's number, as the core keeps it. */
export async function orderDetail(running: Running, shop: Caller, number: string) {
  // Asked a few times: the list row the test waited for comes from the same store, so a miss after that means
  // the core lost or renumbered the order, and the failure names what the list held instead.
  let held: string[] = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    const list = await running.app.services.orders.list(shop, { limit: 50, offset: 0 });
    const row = list.rows.find((r) => r.clientNumber === number);
    if (row) return running.app.services.orders.get(shop, row.orderId);
    held = list.rows.map((r) => r.clientNumber);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Order ${number} is not in the core's list; it holds: ${held.join(', ') || 'nothing'}`);
}

/** A point's code at its service, as the lists keep it. */
export async function pointCode(running: Running, shop: Caller, providerKey: string, id: number): Promise<string> {
  const point = await running.app.dispatch('lists.point', shop, { providerKey, id });
  return point.ok ? (point.value as { code: string }).code : '';
}

/** Opens the order from a fresh list and prints its label from the detail: the PDF the new tab got. */
export async function printLabel(page: Page, number: string): Promise<Uint8Array> {
  await page.reload();
  await page.getByTestId('order-row').filter({ hasText: number }).click();
  const button = page.getByTestId('order-detail').getByTestId('detail-label');
  await button.waitFor();
  await page.evaluate(keepBlobs);
  return openedPdf(page, () => button.click());
}
