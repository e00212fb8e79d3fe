import { attentionReasonOf, attentionReasons, type AttentionReason } from '../../../shared/attention';
import type { CallContext } from '../companies/company-service';
import type { OrdersStore } from '../store/orders/orders-store';

export interface AttentionSummary {
  total: number;
  byReason: { reason: AttentionReason; orders: number }[];
}

/** How many of the company's orders need attention, by reason (every reason listed, zero or not). */
export async function attentionSummary(store: OrdersStore, ctx: CallContext): Promise<AttentionSummary> {
  const counts = new Map<AttentionReason, number>();
  for (const group of await store.attentionCounts(ctx.companyId)) {
    const reason = attentionReasonOf({ statusKey: group.statusKey, providerNumber: group.registered ? 'yes' : null });
    if (reason) counts.set(reason, (counts.get(reason) ?? 0) + group.orders);
  }
  const byReason = attentionReasons.map((reason) => ({ reason, orders: counts.get(reason) ?? 0 }));
  return { total: byReason.reduce((sum, r) => sum + r.orders, 0), byReason };
}

/**
 * Marks the company's named orders seen: they leave the attention list until their status changes
 * again. Ids of other companies' orders, or of orders that need no attention, change nothing.
 */
export async function markAttentionSeen(store: OrdersStore, ctx: CallContext, orderIds: string[]): Promise<{ seen: number }> {
  const ids = orderIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  if (ids.length === 0) return { seen: 0 };
  return { seen: await store.markAttentionSeen(ctx.companyId, ids) };
}
