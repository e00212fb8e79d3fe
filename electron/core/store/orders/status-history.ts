import { sql, type SqlBool } from 'kysely';
import type { BoundCondition } from '../../lists/filter';
import type { Db } from '../database';
import { conditionSql, type SqlFilterField, type TextSql } from '../filter-sql';
import type { OrderStatusPair, Page, StatusFilter, StatusRange, StatusRecord, StoredOrder, TrackedOrder, TrackingQuery } from './orders-store';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { chunked } from './chunked';
import { tracked } from './refresh-runs';
import { toOrder, toStatus } from './rows';

/**
 * The orders store's reads of status history (the status answers, webhooks), in engine-neutral Kysely; tracking's
 * write is each engine's own (sqlite.ts on statements prepared once, postgres-tracking.ts). `text`: how the engine
 * folds text.
 */

/** Where the status lists' filter fields live: `s` is order_statuses, `o` orders. */
const statusColumns: Record<string, Pick<SqlFilterField, 'column'>> = {
  key: { column: 's.key' },
  created: { column: 's.created_at' },
  orderId: { column: 'o.id' },
  providerKey: { column: 'o.provider_key' },
  clientNumber: { column: 'o.client_number' },
};

const onColumns = (filter: StatusFilter) =>
  filter.map((c: BoundCondition): BoundCondition<SqlFilterField> => ({ ...c, spec: { ...c.spec, column: statusColumns[c.field].column } }));

/** Newest first: by the time the status was set, then by the order it was recorded in. */
const latestStatusOf = (orderIdColumn: string) =>
  sql<number>`(SELECT l.id FROM order_statuses l WHERE l.order_id = ${sql.ref(orderIdColumn)} ORDER BY l.created_at DESC, l.id DESC LIMIT 1)`;

/** The company's orders among these ids (canceled included, deleted never), by id. */
export async function ordersById(db: Db, companyId: number, ids: number[]): Promise<Map<number, StoredOrder>> {
  const found = new Map<number, StoredOrder>();
  for (const part of chunked([...new Set(ids)])) {
    const rows = await db.selectFrom('orders').selectAll().where('company_id', '=', companyId).where('state', '!=', 'deleted').where('id', 'in', part).execute();
    for (const row of rows) found.set(row.id, toOrder(row));
  }
  return found;
}

export function statusHistoryReads(db: Db, text: TextSql) {

  return {
    async findOrderByClientNumber(companyId: number, clientNumber: string): Promise<StoredOrder | undefined> {
      const row = await db
        .selectFrom('orders')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('client_number', '=', clientNumber)
        .where('state', '!=', 'deleted')
        .orderBy(sql`state = 'active'`, 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toOrder(row);
    },

    async latestStatuses(companyId: number, orderIds: number[]): Promise<Map<number, StatusRecord>> {
      const latest = new Map<number, StatusRecord>();
      for (const part of chunked(orderIds)) {
        const rows = await db
          .selectFrom('order_statuses as s')
          .selectAll('s')
          .where('s.company_id', '=', companyId)
          .where('s.order_id', 'in', part)
          .where(sql<SqlBool>`s.id = ${latestStatusOf('s.order_id')}`)
          .execute();
        for (const row of rows) latest.set(row.order_id, toStatus(row));
      }
      return latest;
    },

    async changedSince(companyId: number, since: number): Promise<OrderStatusPair[]> {
      const statuses = await db
        .selectFrom('order_statuses as s')
        .selectAll('s')
        .where('s.company_id', '=', companyId)
        .where('s.created_at', '>', since)
        .where(sql<SqlBool>`s.id = ${latestStatusOf('s.order_id')}`)
        .orderBy('s.created_at')
        .orderBy('s.order_id')
        .execute();
      const orders = await ordersById(db, companyId, statuses.map((s) => s.order_id));
      return statuses.flatMap((status) => {
        const order = orders.get(status.order_id);
        return order ? [{ order, status: toStatus(status) }] : [];
      });
    },

    async statusHistory(companyId: number, orderIds: number[], filter: StatusFilter, page: Page) {
      let base = db.selectFrom('order_statuses as s').where('s.company_id', '=', companyId).where('s.order_id', 'in', orderIds.length ? orderIds : [0]);
      for (const condition of onColumns(filter)) base = base.where(conditionSql(condition, text));
      const [rows, total] = await Promise.all([
        base.selectAll('s').orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(page.limit).offset(page.offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { statuses: rows.map(toStatus), total: Number(total.n) };
    },

    async statusHistoryList(companyId: number, range: StatusRange, filter: StatusFilter, page: Page) {
      let base = db
        .selectFrom('order_statuses as s')
        .innerJoin('orders as o', 'o.id', 's.order_id')
        .where('s.company_id', '=', companyId)
        .where('o.state', '!=', 'deleted');
      if (range.after !== undefined) base = base.where('s.created_at', '>', range.after);
      if (range.from !== undefined) base = base.where('s.created_at', '>=', range.from);
      if (range.before !== undefined) base = base.where('s.created_at', '<', range.before);
      for (const condition of onColumns(filter)) base = base.where(conditionSql(condition, text));

      const [ids, total] = await Promise.all([
        base.select('s.order_id').distinct().orderBy('s.order_id').limit(page.limit).offset(page.offset).execute(),
        base.select((eb) => eb.fn.count<number>('s.order_id').distinct().as('n')).executeTakeFirstOrThrow(),
      ]);
      const orderIds = ids.map((r) => r.order_id);
      if (orderIds.length === 0) return { rows: [], total: Number(total.n) };
      const [orders, statuses] = await Promise.all([
        ordersById(db, companyId, orderIds),
        base.where('s.order_id', 'in', orderIds).selectAll('s').orderBy('s.order_id').orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute(),
      ]);
      const byOrder = new Map<number, StatusRecord[]>(orderIds.map((id) => [id, []]));
      for (const status of statuses) byOrder.get(status.order_id)?.push(toStatus(status));
      return { rows: orderIds.map((id) => ({ order: orders.get(id)!, statuses: byOrder.get(id)! })), total: Number(total.n) };
    },

    async statusWithOrder(companyId: number, statusId: number): Promise<OrderStatusPair | undefined> {
      const status = await db.selectFrom('order_statuses').selectAll().where('id', '=', statusId).where('company_id', '=', companyId).executeTakeFirst();
      const order = status && (await db.selectFrom('orders').selectAll().where('id', '=', status.order_id).where('company_id', '=', companyId).executeTakeFirst());
      return status && order ? { order: toOrder(order), status: toStatus(status) } : undefined;
    },

    async statusesById(statusIds: number[]): Promise<Map<number, StatusRecord>> {
      const found = new Map<number, StatusRecord>();
      for (const part of chunked([...new Set(statusIds)])) {
        for (const row of await db.selectFrom('order_statuses').selectAll().where('id', 'in', part).execute()) found.set(row.id, toStatus(row));
      }
      return found;
    },

    async trackedOrders(query: TrackingQuery): Promise<TrackedOrder[]> {
      let q = tracked(db, query)
        .select(['id', 'company_id', 'provider_key', 'provider_number', 'additional_provider_number', 'client_number', 'payload', 'status_key'])
        .where('id', '>', query.afterId);
      if (query.orderIds) q = q.where('id', 'in', query.orderIds.length ? query.orderIds : [0]);
      const rows = await q.orderBy('id').limit(query.limit).execute();
      return rows.map((r) => ({
        id: r.id,
        companyId: r.company_id,
        providerKey: r.provider_key,
        providerNumber: r.provider_number!,
        additionalProviderNumber: r.additional_provider_number,
        clientNumber: r.client_number,
        statusKey: r.status_key,
        payload: JSON.parse(r.payload) as OrderCreate,
      }));
    },

    async statusesOf(orderIds: number[]): Promise<StatusRecord[]> {
      if (orderIds.length === 0) return [];
      const rows = await db.selectFrom('order_statuses').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('id').execute();
      return rows.map(toStatus);
    },
  };
}
