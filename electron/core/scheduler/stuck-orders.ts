import { sql } from 'kysely';
import { finalStatusKeys, type StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import type { Db } from '../store/database';

const day = 86_400_000;

/**
 * The condition of the partial index orders_stuck (migration 0012), written out literally: SQLite uses a
 * partial index only when the query states its WHERE, and bound parameters do not count.
 */
const liveUnfinished = sql<boolean>`state = 'active' AND status_key NOT IN (${sql.raw([...finalStatusKeys].map((k) => `'${k}'`).join(', '))})`;

/** Live, unfinished orders whose status has not moved for `days`, longest waiting first. */
export async function stuckOrders(db: Db, clock: Clock, ctx: CallContext, query: { days: number; limit: number; offset: number }) {
  const now = clock.now();
  const base = db
    .selectFrom('orders')
    .where('company_id', '=', ctx.companyId)
    .where(liveUnfinished)
    .where('status_changed_at', '<=', now - query.days * day);
  const [rows, total] = await Promise.all([
    base
      .select(['id', 'client_number', 'provider_key', 'provider_number', 'status_key', 'status_description', 'recipient_name', 'status_changed_at'])
      .orderBy('status_changed_at')
      .orderBy('id')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    thresholdDays: query.days,
    total: Number(total.n),
    rows: rows.map((r) => ({
      orderId: String(r.id),
      clientNumber: r.client_number,
      providerKey: r.provider_key,
      providerNumber: r.provider_number,
      statusKey: r.status_key as StatusKey,
      statusDescription: r.status_description,
      recipientName: r.recipient_name,
      statusChanged: formatTimestamp(r.status_changed_at),
      daysWithoutChange: Math.floor((now - r.status_changed_at) / day),
    })),
  };
}
