import type { FailedOrderEntry } from '../../../shared/contract/labels';
import { said } from '../../../shared/messages';
import type { CallContext } from '../companies/company-service';
import type { OrdersStore } from '../store/orders/orders-store';
import type { TrackedShipment } from '../providers/provider';
import type { PrintableOrder } from './label';

/** An order the print job could not take, with the reason in words a shop owner understands (and by key, for the window). */
export type FailedOrder = FailedOrderEntry;

/**
 * The asked orders that can be printed, in the asked order, and the others with why not: unknown,
 * deleted or another company's ("not found", nothing more is said about other companies), canceled,
 * or not registered with its delivery service yet (no service number to print). One read for all.
 */
export async function readPrintableOrders(store: OrdersStore, ctx: CallContext, orderIds: string[]): Promise<{ orders: PrintableOrder[]; failed: FailedOrder[] }> {
  const ids = orderIds.map((raw) => (/^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN));
  const valid = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  const byId = valid.length ? await store.findOrders(ctx.companyId, valid) : new Map<number, never>();
  const orders: PrintableOrder[] = [];
  const failed: FailedOrder[] = [];
  const seen = new Set<number>();
  orderIds.forEach((raw, i) => {
    const row = byId.get(ids[i]);
    if (!row) failed.push({ orderId: raw, ...said('printable.notFound', { orderId: raw }) });
    else if (row.state === 'canceled') failed.push({ orderId: raw, ...said('printable.canceled', { orderId: raw }) });
    else if (row.providerNumber === null) failed.push({ orderId: raw, ...said('printable.notRegistered', { orderId: raw }) });
    else if (!seen.has(row.id)) {
      // The same order asked twice prints once.
      seen.add(row.id);
      orders.push({
        orderId: row.id,
        clientNumber: row.clientNumber,
        providerKey: row.providerKey,
        providerNumber: row.providerNumber,
        additionalProviderNumber: row.additionalProviderNumber,
        codKopecks: row.codKopecks,
        assessedKopecks: row.assessedKopecks,
        order: row.payload,
      });
    }
  });
  return { orders, failed };
}

/** Consecutive runs of items with the same key, in order (one print call per run keeps the list's order). */
export function runsBy<T>(items: T[], key: (item: T) => string): { key: string; items: T[] }[] {
  const runs: { key: string; items: T[] }[] = [];
  for (const item of items) {
    const k = key(item);
    const last = runs.at(-1);
    if (last && last.key === k) last.items.push(item);
    else runs.push({ key: k, items: [item] });
  }
  return runs;
}

/** A printable order as its carrier is asked about it (its own labels or act). */
export const toShipment = (companyId: number, o: PrintableOrder): TrackedShipment => ({
  providerNumber: o.providerNumber,
  additionalProviderNumber: o.additionalProviderNumber,
  request: { companyId, orderId: o.orderId, clientNumber: o.clientNumber, order: o.order, providerNumber: o.providerNumber, additionalProviderNumber: o.additionalProviderNumber },
});
