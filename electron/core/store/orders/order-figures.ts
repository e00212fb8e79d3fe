import { sql } from 'kysely';
import type { OrderListFilter } from '../../../../shared/schemas/orders-list';
import { finalStatusKeys } from '../../../../shared/status-keys';
import type { Db } from '../database';
import { filteredOrders, listedColumns } from './order-search';
import type { OrderFiguresStore } from './orders-store';
import { toListedOrder } from './rows';

/**
 * The condition of the partial index orders_stuck (migration 0012), written out literally: SQLite uses a
 * partial index only when the query states its WHERE, and bound parameters do not count.
 */
const liveUnfinished = sql<boolean>`state = 'active' AND status_key NOT IN (${sql.raw([...finalStatusKeys].map((k) => `'${k}'`).join(', '))})`;

/**
 * The orders aggregate's figures (the "Today" screen, the stuck orders, the next test change), in Kysely's
 * engine-neutral queries for both engines. Counts come back as numbers whatever the driver gives.
 */
export function orderFigures(db: Db): OrderFiguresStore {
  return {
    async countOrders(companyId, filter: OrderListFilter, by) {
      const column = by === 'status' ? 'status_key' : 'provider_key';
      const rows = await filteredOrders(db, companyId, filter).select((eb) => [eb.ref(column).as('key'), eb.fn.countAll<number>().as('n')]).groupBy(column).execute();
      return new Map(rows.map((r) => [r.key, Number(r.n)]));
    },

    async deliveryTimes(companyId, filter) {
      // A delivered order's status no longer changes: its last change is the delivery.
      const took = sql<number>`status_changed_at - created_at`;
      const rows = await filteredOrders(db, companyId, { ...filter, statusKeys: ['delivered'] })
        .select((eb) => ['provider_key', eb.fn.countAll<number>().as('n'), eb.fn.avg<number>(took).as('average'), eb.fn.min<number>(took).as('fastest'), eb.fn.max<number>(took).as('slowest')])
        .groupBy('provider_key')
        .execute();
      return rows.map((r) => ({ providerKey: r.provider_key, delivered: Number(r.n), averageMs: Number(r.average), fastestMs: Number(r.fastest), slowestMs: Number(r.slowest) }));
    },

    async stuckOrders(companyId, query) {
      const base = db.selectFrom('orders').where('company_id', '=', companyId).where(liveUnfinished).where('status_changed_at', '<=', query.changedBefore);
      const [rows, total] = await Promise.all([
        base.select(listedColumns).orderBy('status_changed_at').orderBy('id').limit(query.limit).offset(query.offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { orders: rows.map(toListedOrder), total: Number(total.n) };
    },

    async registeredUnfinished(companyId, query) {
      let q = db
        .selectFrom('orders')
        .select(listedColumns)
        .where('company_id', '=', companyId)
        .where('state', '=', 'active')
        .where('provider_number', 'is not', null)
        .where('status_key', 'not in', [...finalStatusKeys])
        .where('provider_key', 'in', query.providerKeys.length ? query.providerKeys : [''])
        .orderBy('id', 'desc')
        .limit(query.limit);
      if (query.orderId !== undefined) q = q.where('id', '=', query.orderId);
      return (await q.execute()).map(toListedOrder);
    },
  };
}
