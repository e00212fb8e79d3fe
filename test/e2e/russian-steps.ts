import type { Locator, Page } from 'playwright-core';
import type { Caller } from '../../electron/core/auth/caller';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import type { openBrowserMode } from '../helpers/browser';
import { settled } from '../helpers/settled';

type Running = Awaited<ReturnType<typeof openBrowserMode>>['running'];

/**
 * The shop chooses Russian in Settings → Preferences, and the core has stored it: files the core writes follow
 * the stored choice, and "system" would mean the computer the core runs on, which in the tests speaks English.
 */
export async function chooseRussian(page: Page, running: Running, shop: Caller) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-tab-preferences').click();
  await page.getByTestId('prefs-language').click();
  await page.getByRole('option', { name: 'Русский', exact: true }).click();
  await vi.waitFor(async () => expect((await running.app.services.settings.get(shop)).preferences.language).toBe('ru'));
}

/** An order created through the command table, as the window creates it; its orderId (the core's refusal fails the test). */
export async function createdOrder(running: Running, shop: Caller, payload: OrderCreateInput): Promise<string> {
  const created = await running.app.dispatch('orders.create', shop, orderCreateSchema.parse(payload));
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  return (created.value as { orderId: string }).orderId;
}

/** On the orders list (reloaded), the orders of these numbers selected and canceled at once; the result dialog, drawn. */
export async function bulkCancel(page: Page, numbers: string[]): Promise<Locator> {
  await page.getByTestId('nav-orders').click();
  await page.reload();
  for (const n of numbers) await page.getByTestId('order-row').filter({ hasText: n }).getByRole('checkbox').check();
  await page.getByTestId('bulk-cancel').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Отменить заказы' }).click();
  const result = page.getByTestId('bulk-result');
  await result.getByTestId('bulk-result-ok').waitFor();
  await settled(page, '[data-testid="bulk-result"] section, [data-testid="bulk-result"]');
  return result;
}
