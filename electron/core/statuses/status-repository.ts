import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../store/database';
import type { OrderStatusesTable, OrdersTable } from '../store/schema';

export type OrderRow = Selectable<OrdersTable>;
export type StatusRow = Selectable<OrderStatusesTable>;

/** Newest first: by the time the status was set, then by the order it was recorded in. */
const latestStatusOf = (orderIdColumn: string) =>
  sql<number>`(SELECT l.id FROM order_statuses l WHERE l.order_id = ${sql.ref(orderIdColumn)} ORDER BY l.created_at DESC, l.id DESC LIMIT 1)`;

const chunk = <T>(items: T[], size = 500): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** The company's non-deleted order with this clientNumber: the live one, else the newest canceled one. */
export function findOrderByClientNumber(db: Db, companyId: number, clientNumber: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('client_number', '=', clientNumber)
    .where('state', '!=', 'deleted')
    .orderBy(sql`state = 'active'`, 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The company's non-deleted orders among these ids. */
export async function findOrders(db: Db, companyId: number, ids: number[]): Promise<Map<number, OrderRow>> {
  const found = new Map<number, OrderRow>();
  for (const part of chunk(ids)) {
    const rows = await db.selectFrom('orders').selectAll().where('company_id', '=', companyId).where('state', '!=', 'deleted').where('id', 'in', part).execute();
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** The current (newest) status of each order that has one. */
export async function latestStatuses(db: Db, orderIds: number[]): Promise<Map<number, StatusRow>> {
  const latest = new Map<number, StatusRow>();
  for (const part of chunk(orderIds)) {
    const rows = await db
      .selectFrom('order_statuses as s')
      .selectAll('s')
      .where('s.order_id', 'in', part)
      .where(sql<SqlBool>`s.id = ${latestStatusOf('s.order_id')}`)
      .execute();
    for (const row of rows) latest.set(row.order_id, row);
  }
  return latest;
}

/** The company's orders whose current status was set after `since`, oldest change first. */
export async function changedSince(db: Db, companyId: number, since: number): Promise<{ order: OrderRow; status: StatusRow }[]> {
  const statuses = await db
    .selectFrom('order_statuses as s')
    .selectAll('s')
    .where('s.company_id', '=', companyId)
    .where('s.created_at', '>', since)
    .where(sql<SqlBool>`s.id = ${latestStatusOf('s.order_id')}`)
    .orderBy('s.created_at')
    .orderBy('s.order_id')
    .execute();
  const orders = await findOrders(db, companyId, statuses.map((s) => s.order_id));
  return statuses.flatMap((status) => {
    const order = orders.get(status.order_id);
    return order ? [{ order, status }] : [];
  });
}

/** One page of the statuses of these orders, newest first, with the total. */
export async function historyOf(db: Db, orderIds: number[], page: { offset: number; limit: number }, conditions: Expression<SqlBool>[] = []) {
  let base = db.selectFrom('order_statuses as s').where('s.order_id', 'in', orderIds);
  for (const condition of conditions) base = base.where(condition);
  const [rows, total] = await Promise.all([
    base.selectAll('s').orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export interface StatusRange {
  /** Statuses set after this moment (exclusive) … */
  after?: number;
  /** … or from this moment (inclusive) … */
  from?: number;
  /** … and before this moment (exclusive). */
  before?: number;
}

/**
 * The company's status changes in a time range, grouped by order: one page of orders (by order id),
 * each with its matching statuses newest first; total counts the orders.
 */
export async function historyList(
  db: Db,
  companyId: number,
  range: StatusRange,
  conditions: Expression<SqlBool>[],
  page: { offset: number; limit: number },
) {
  let base = db
    .selectFrom('order_statuses as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .where('s.company_id', '=', companyId)
    .where('o.state', '!=', 'deleted');
  if (range.after !== undefined) base = base.where('s.created_at', '>', range.after);
  if (range.from !== undefined) base = base.where('s.created_at', '>=', range.from);
  if (range.before !== undefined) base = base.where('s.created_at', '<', range.before);
  for (const condition of conditions) base = base.where(condition);

  const [ids, total] = await Promise.all([
    base.select('s.order_id').distinct().orderBy('s.order_id').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.count<number>('s.order_id').distinct().as('n')).executeTakeFirstOrThrow(),
  ]);
  const orderIds = ids.map((r) => r.order_id);
  if (orderIds.length === 0) return { rows: [], total: Number(total.n) };
  const [orders, statuses] = await Promise.all([
    findOrders(db, companyId, orderIds),
    base.where('s.order_id', 'in', orderIds).selectAll('s').orderBy('s.order_id').orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute(),
  ]);
  const byOrder = new Map<number, StatusRow[]>(orderIds.map((id) => [id, []]));
  for (const status of statuses) byOrder.get(status.order_id)?.push(status);
  return {
    rows: orderIds.map((id) => ({ order: orders.get(id)!, statuses: byOrder.get(id)! })),
    total: Number(total.n),
  };
}
