import type { Db } from '../database';
import type { HandOver, HandOverOutcome, HandoverNumber, OrderHandoverStore } from './orders-store';
import type { Trx } from './queries';
import { toOrder } from './rows';

/** YYYYMMDD of a moment in local time: handover acts are numbered by the day the parcels leave. */
export function dayStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Orders waiting for the courier: registered with their service (status `uploaded`, the service has not
 * reported taking them), live, and not marked handed over (the same rule for one order: dispatch-service's awaitsHandover).
 */
const awaiting = (db: Trx, companyId: number) =>
  db
    .selectFrom('orders')
    .where('company_id', '=', companyId)
    .where('handover_id', 'is', null)
    .where('state', '=', 'active')
    .where('provider_number', 'is not', null)
    .where('status_key', '=', 'uploaded');

/** The number the next handover of this service on that day gets: «20261125-sandbox-express», then «…-2». */
async function nextNumber(db: Trx, companyId: number, providerKey: string, at: number): Promise<string> {
  const base = `${dayStamp(at)}-${providerKey}`;
  const { n } = await db
    .selectFrom('handovers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('number', '=', base), eb('number', 'like', `${base}-%`)]))
    .executeTakeFirstOrThrow();
  return Number(n) === 0 ? base : `${base}-${Number(n) + 1}`;
}

/**
 * The orders aggregate's handovers (the dispatch screen, its acts and the "Today" count), in Kysely's engine-neutral
 * queries for both engines. `lockRows`: PostgreSQL locks the waiting orders a handover takes (see OrdersEngine).
 */
export function orderHandovers(db: Db, lockRows: boolean): OrderHandoverStore {
  return {
    async awaitingHandover(companyId) {
      const rows = await awaiting(db, companyId).selectAll().orderBy('provider_key').orderBy('id').execute();
      return rows.map(toOrder);
    },

    async awaitingHandoverCounts(companyId) {
      const rows = await awaiting(db, companyId).select((eb) => ['provider_key', eb.fn.countAll<number>().as('n')]).groupBy('provider_key').execute();
      return new Map(rows.map((r) => [r.provider_key, Number(r.n)]));
    },

    nextHandoverNumber: (companyId, providerKey, at) => nextNumber(db, companyId, providerKey, at),

    async handoversOf(companyId, orderIds) {
      if (orderIds.length === 0) return [];
      const rows = await db
        .selectFrom('orders')
        .leftJoin('handovers', 'handovers.id', 'orders.handover_id')
        .select(['handovers.number', 'handovers.handed_at'])
        .where('orders.company_id', '=', companyId)
        .where('orders.id', 'in', orderIds)
        .distinct()
        .execute();
      return rows.map((r): HandoverNumber | null => (r.number === null || r.handed_at === null ? null : { number: r.number, handedAt: r.handed_at }));
    },

    handOver(h: HandOver): Promise<HandOverOutcome> {
      return db.transaction().execute(async (trx) => {
        let waiting = awaiting(trx, h.companyId).selectAll().where('provider_key', '=', h.providerKey).where('id', 'in', h.orderIds.length ? h.orderIds : [-1]);
        if (lockRows) waiting = waiting.forUpdate();
        const orders = (await waiting.orderBy('id').execute()).map(toOrder);
        const taken = new Set(orders.map((o) => o.id));
        const notWaiting = h.orderIds.filter((id) => !taken.has(id));
        if (notWaiting.length) return { notWaiting };
        const totals = h.measure(orders);
        const number = await nextNumber(trx, h.companyId, h.providerKey, h.at);
        const { id } = await trx
          .insertInto('handovers')
          .values({ company_id: h.companyId, provider_key: h.providerKey, number, handed_at: h.at, orders: orders.length, places: totals.places, weight_grams: totals.weightGrams })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('orders').set({ handover_id: id }).where('company_id', '=', h.companyId).where('id', 'in', [...taken]).execute();
        return { handover: { id, number, handedAt: h.at, orders: orders.length, ...totals } };
      });
    },
  };
}
