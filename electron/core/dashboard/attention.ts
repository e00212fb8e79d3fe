import { sql } from 'kysely';
import { attentionReasonOf, attentionReasons, attentionStatusKeys, type AttentionReason } from '../../../shared/attention';
import type { CallContext } from '../companies/company-service';
import type { Db } from '../store/database';

const quoted = (keys: readonly string[]) => sql.raw(keys.map((k) => `'${k}'`).join(', '));

/**
 * Live orders in an attention status the shop has not marked seen since their last status change
 * (the statuses written out literally, so SQLite looks them up in orders_company_status).
 */
export const needsAttention = sql<boolean>`(state = 'active' AND status_key IN (${quoted(attentionStatusKeys)}) AND (attention_seen_at IS NULL OR attention_seen_at <> status_changed_at))`;

export interface AttentionSummary {
  total: number;
  byReason: { reason: AttentionReason; orders: number }[];
}

/** How many of the company's orders need attention, by reason (every reason listed, zero or not). */
export async function attentionSummary(db: Db, ctx: CallContext): Promise<AttentionSummary> {
  const rows = await db
    .selectFrom('orders')
    .where('company_id', '=', ctx.companyId)
    .where(needsAttention)
    .select((eb) => ['status_key', sql<number>`provider_number IS NOT NULL`.as('registered'), eb.fn.countAll<number>().as('n')])
    .groupBy(['status_key', sql`provider_number IS NOT NULL`])
    .execute();
  const counts = new Map<AttentionReason, number>();
  for (const row of rows) {
    const reason = attentionReasonOf({ statusKey: row.status_key, providerNumber: row.registered ? 'yes' : null });
    if (reason) counts.set(reason, (counts.get(reason) ?? 0) + Number(row.n));
  }
  const byReason = attentionReasons.map((reason) => ({ reason, orders: counts.get(reason) ?? 0 }));
  return { total: byReason.reduce((sum, r) => sum + r.orders, 0), byReason };
}

/**
 * Marks the company's named orders seen: they leave the attention list until their status changes
 * again. Ids of other companies' orders, or of orders that need no attention, change nothing.
 */
export async function markAttentionSeen(db: Db, ctx: CallContext, orderIds: string[]): Promise<{ seen: number }> {
  const ids = orderIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  if (ids.length === 0) return { seen: 0 };
  const result = await db
    .updateTable('orders')
    .set({ attention_seen_at: sql`status_changed_at` })
    .where('company_id', '=', ctx.companyId)
    .where('id', 'in', ids)
    .where(needsAttention)
    .executeTakeFirst();
  return { seen: Number(result.numUpdatedRows) };
}
