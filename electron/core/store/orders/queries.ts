import { sql, type RawBuilder, type Transaction } from 'kysely';
import { storedMessage } from '../../../../shared/messages';
import type { Db } from '../database';
import type { TextSql } from '../filter-sql';
import type { Schema } from '../schema';
import { isUniqueViolation } from '../storage-errors';
import { needsAttention } from './attention-sql';
import { chunked } from './chunked';
import { orderFigures } from './order-figures';
import { orderHandovers } from './handovers';
import { importedOrderWrites } from './imported-orders';
import { filteredOrders, listedColumns, listOrders, type OrderSearchSql } from './order-search';
import {
  ClientNumberTaken, type DueJob, type ListedOrder, type NewStatus, type OrdersStore,
  type ServicePair,
} from './orders-store';
import { columnsOf, messageJson, toJob, toListedOrder, toOrder } from './rows';
import { ordersById, statusHistoryReads } from './status-history';
import { statusRefreshRuns } from './refresh-runs';

/**
 * The orders store in Kysely's engine-neutral queries: PostgreSQL's whole store, and SQLite's but for the hot
 * paths it runs on statements prepared once (sqlite.ts). What differs between the engines comes in `OrdersEngine`.
 */

export type Trx = Db | Transaction<Schema>;

export interface OrdersEngine {
  /** How the engine folds and compares text (the status lists' filters). */
  text: TextSql;
  /** How the engine finds the orders a typed search matches. */
  search: OrderSearchSql;
  /**
   * Whether a transaction that reads an order and then writes what it decided locks the order's row as it reads
   * (PostgreSQL: FOR UPDATE, its transactions run side by side; SQLite's one writer needs none and has no such clause).
   */
  lockRows: boolean;
  /** A text field of the order's JSON payload by its path (SQLite's json_extract, PostgreSQL's #>>); a literal path. */
  payloadText: (path: readonly string[]) => RawBuilder<string | null>;
}

/** Orders (aliased `r`) of any of the pairs; a missing connection matches a missing one. */
export const ofPairs = (pairs: ServicePair[]) =>
  sql<boolean>`(${sql.join(
    pairs.map((p) =>
      p.providerConnectId === null
        ? sql`(r.provider_key = ${p.providerKey} AND r.provider_connect_id IS NULL)`
        : sql`(r.provider_key = ${p.providerKey} AND r.provider_connect_id = ${p.providerConnectId})`,
    ),
    sql` OR `,
  )})`;

/** The later of a column's time and a moment (SQLite's max(a, b) and PostgreSQL's greatest(a, b) in one form). */
const later = (column: string, at: number) => sql<number>`CASE WHEN ${sql.ref(column)} > ${at} THEN ${sql.ref(column)} ELSE ${at} END`;

/** Records a status and makes it the order's current one, inside the caller's transaction. */
export async function appendStatusIn(trx: Trx, orderId: number, companyId: number, status: NewStatus): Promise<void> {
  await trx
    .insertInto('order_statuses')
    .values({
      order_id: orderId,
      company_id: companyId,
      key: status.key,
      description: status.description ?? null,
      description_message: messageJson(status.descriptionMessage),
      created_at: status.at,
      provider_code: status.providerCode ?? null,
      provider_name: status.providerName ?? null,
      provider_description: status.providerDescription ?? null,
      created_provider: status.createdProvider ?? null,
      error_code: status.errorCode ?? null,
    })
    .execute();
  await trx
    .updateTable('orders')
    .set({ status_key: status.key, status_description: status.description ?? null, status_description_message: messageJson(status.descriptionMessage), status_changed_at: status.at, updated_at: status.at })
    .where('id', '=', orderId)
    .execute();
}

async function liveClientNumber(trx: Trx, companyId: number, clientNumber: string, exceptOrderId?: number) {
  let query = trx.selectFrom('orders').select('id').where('company_id', '=', companyId).where('client_number', '=', clientNumber).where('state', '=', 'active');
  if (exceptOrderId !== undefined) query = query.where('id', '!=', exceptOrderId);
  return (await query.executeTakeFirst()) !== undefined;
}

function findOrderIn(trx: Trx, companyId: number, orderId: number, lock = false) {
  return trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('company_id', '=', companyId)
    .where('state', '!=', 'deleted')
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

async function withJobs(trx: Trx, companyId: number, orderId: number, lock = false) {
  const row = await findOrderIn(trx, companyId, orderId, lock);
  if (!row) return undefined;
  const jobs = await trx.selectFrom('outbox').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  return { order: toOrder(row), jobs: jobs.map(toJob) };
}

/**
 * Every query but the create, the claim and the records of registrations and of a refresh, which each engine takes in
 * its own way (the create: SQLite's prepared statements, PostgreSQL's one statement per group, postgres-create.ts; the
 * claim: SQLite's prepared statements, PostgreSQL's SKIP LOCKED; the records: SQLite's prepared statements,
 * PostgreSQL's set-based statements, postgres-registrations.ts and postgres-tracking.ts).
 */
export function createOrdersQueries(db: Db, engine: OrdersEngine): Omit<OrdersStore, 'createOrders' | 'createOrder' | 'claimJobs' | 'recordTracking' | 'recordRegistrations'> {
  return {
    ...statusHistoryReads(db, engine.text),
    ...importedOrderWrites(db),
    ...orderHandovers(db, engine.lockRows),
    ...orderFigures(db),
    ...statusRefreshRuns(db),

    clientNumberTaken: (companyId, clientNumber, exceptOrderId) => liveClientNumber(db, companyId, clientNumber, exceptOrderId),

    async findOrder(companyId, orderId) {
      const row = await findOrderIn(db, companyId, orderId);
      return row && toOrder(row);
    },

    findOrders: (companyId, orderIds) => ordersById(db, companyId, orderIds),

    findOrderWithJobs: (companyId, orderId) => withJobs(db, companyId, orderId),

    async changeOrder(companyId, orderId, at, decide) {
      let clientNumber = '';
      return db
        .transaction()
        .execute(async (trx) => {
          const change = decide(await withJobs(trx, companyId, orderId, engine.lockRows));
          if (!change) return false;
          if (change.payload) {
            clientNumber = change.payload.order.clientNumber;
            if (await liveClientNumber(trx, companyId, change.payload.order.clientNumber, orderId)) throw new ClientNumberTaken(change.payload.order.clientNumber);
            await trx.updateTable('orders').set({ ...columnsOf(change.payload), updated_at: at }).where('id', '=', orderId).execute();
          }
          if (change.dropTransfers) await trx.deleteFrom('outbox').where('order_id', '=', orderId).where('action', 'in', ['create', 'update']).execute();
          if (change.state === 'canceled') await trx.updateTable('orders').set({ state: 'canceled', canceled_at: at }).where('id', '=', orderId).execute();
          if (change.state === 'deleted') await trx.updateTable('orders').set({ state: 'deleted', deleted_at: at, updated_at: at }).where('id', '=', orderId).execute();
          if (change.status) await appendStatusIn(trx, orderId, companyId, change.status);
          if (change.enqueue) {
            await trx.insertInto('outbox').values({ order_id: orderId, action: change.enqueue, attempts: 0, next_attempt_at: at, last_error: null, created_at: at }).execute();
          }
          return true;
        })
        .catch((error: unknown) => {
          // The live-number index had the last word: another writer took the clientNumber meanwhile.
          if (isUniqueViolation(error)) throw new ClientNumberTaken(clientNumber);
          throw error;
        });
    },

    appendStatus: (orderId, companyId, status) => db.transaction().execute((trx) => appendStatusIn(trx, orderId, companyId, status)),

    async listOrders(companyId, query) {
      const page = await listOrders(db, companyId, query, engine.search);
      return { orders: page.rows.map(toListedOrder), total: page.total, capped: page.capped };
    },

    async listedOrders(companyId, selection) {
      if ('filter' in selection) {
        return (await filteredOrders(db, companyId, selection.filter, engine.search).select(listedColumns).orderBy('id', 'desc').execute()).map(toListedOrder);
      }
      const found = new Map<number, ListedOrder>();
      for (const part of chunked([...new Set(selection.orderIds)])) {
        const rows = await db.selectFrom('orders').select(listedColumns).where('company_id', '=', companyId).where('state', '!=', 'deleted').where('id', 'in', part).execute();
        for (const row of rows) found.set(row.id, toListedOrder(row));
      }
      return selection.orderIds.flatMap((id) => found.get(id) ?? []);
    },

    async codByDeliveryDate(companyId, filter) {
      const deliveryDate = engine.payloadText(['order', 'deliveryDate']);
      const rows = await filteredOrders(db, companyId, filter, engine.search)
        .select((eb) => ['provider_key', deliveryDate.as('date'), eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('cod_kopecks').as('kopecks')])
        .groupBy(['provider_key', deliveryDate])
        .execute();
      return rows.map((r) => ({ providerKey: r.provider_key, deliveryDate: r.date ?? null, orders: Number(r.n), kopecks: Number(r.kopecks) }));
    },

    async attentionCounts(companyId) {
      const rows = await db
        .selectFrom('orders')
        .where('company_id', '=', companyId)
        .where(needsAttention)
        .select((eb) => ['status_key', sql<number | boolean>`provider_number IS NOT NULL`.as('registered'), eb.fn.countAll<number>().as('n')])
        .groupBy(['status_key', sql`provider_number IS NOT NULL`])
        .execute();
      return rows.map((r) => ({ statusKey: r.status_key, registered: Boolean(r.registered), orders: Number(r.n) }));
    },

    async markAttentionSeen(companyId, orderIds) {
      let marked = 0;
      for (const part of chunked([...new Set(orderIds)])) {
        const result = await db
          .updateTable('orders')
          .set({ attention_seen_at: sql`status_changed_at` })
          .where('company_id', '=', companyId)
          .where('id', 'in', part)
          .where(needsAttention)
          .executeTakeFirst();
        marked += Number(result.numUpdatedRows);
      }
      return marked;
    },

    async findHandover(companyId, handoverId) {
      const row = await db.selectFrom('handovers').select(['id', 'number', 'handed_at']).where('id', '=', handoverId).where('company_id', '=', companyId).executeTakeFirst();
      return row && { id: row.id, number: row.number, handedAt: row.handed_at };
    },

    async dueJobs(now, limit, skip) {
      const rows = await db
        .selectFrom('outbox as o')
        .innerJoin('orders as r', 'r.id', 'o.order_id')
        .selectAll('o')
        .select(['r.provider_key', 'r.provider_connect_id'])
        .where('o.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('o.lease_until', 'is', null), eb('o.lease_until', '<=', now)]))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('outbox as p').select(sql`1`.as('x')).whereRef('p.order_id', '=', 'o.order_id').whereRef('p.id', '<', 'o.id'))),
        )
        .where(
          sql<boolean>`NOT (o.action = 'create' AND EXISTS (
            SELECT 1 FROM orders other
            JOIN outbox p ON p.order_id = other.id AND p.id < o.id
            WHERE other.company_id = r.company_id AND other.client_number = r.client_number
              AND other.provider_key = r.provider_key AND other.id != r.id))`,
        )
        .$if(skip.length > 0, (qb) => qb.where(sql<boolean>`NOT ${ofPairs(skip)}`))
        .orderBy('o.next_attempt_at')
        .orderBy('o.id')
        .limit(limit)
        .execute();
      return rows.map((r): DueJob => ({ ...toJob(r), providerKey: r.provider_key, providerConnectId: r.provider_connect_id }));
    },

    jobStillHeld: async (holder, jobId) =>
      (await db.selectFrom('outbox').select('id').where('id', '=', jobId).where('lease_holder', '=', holder).executeTakeFirst()) !== undefined,

    async renewLeases(holder, jobIds, until) {
      let renewed = 0;
      for (const ids of chunked(jobIds)) {
        // PostgreSQL: a renewal never waits for a row another transaction holds (a job being recorded or released
        // there): it skips it, and the next tick renews it if it is still out. Waiting, it deadlocked (40P01) with
        // recordRegistrations, which had removed some of these jobs and then wanted one the renewal held
        // (outbox-locks.test.ts); the rows it does take it takes by id, the one order every writer of several jobs keeps.
        const result = await db
          .updateTable('outbox')
          .set({ lease_until: until })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('outbox as held')
              .select('held.id')
              .where('held.lease_holder', '=', holder)
              .where('held.id', 'in', ids)
              .$if(engine.lockRows, (qb) => qb.orderBy('held.id').forUpdate().skipLocked()),
          )
          .executeTakeFirst();
        renewed += Number(result.numUpdatedRows);
      }
      return renewed;
    },

    async releaseJob(holder, jobId, failure) {
      await db
        .updateTable('outbox')
        .set((eb) => ({
          last_error: failure.error,
          last_error_message: messageJson(failure.errorMessage),
          // The service's Retry-After replaces the backoff set at the claim; without one the backoff stays.
          next_attempt_at: failure.retryAt !== undefined ? Math.max(failure.retryAt, failure.notBefore) : later('next_attempt_at', failure.notBefore),
          failed_attempts: failure.counts ? sql<number>`${eb.ref('failed_attempts')} + 1` : eb.ref('failed_attempts'),
          lease_holder: null,
          lease_until: null,
        }))
        .where('id', '=', jobId)
        .where('lease_holder', '=', holder)
        .execute();
    },

    async holdJobsUntil(pairs, at) {
      if (pairs.length === 0) return;
      await db
        .updateTable('outbox')
        .set({ next_attempt_at: later('next_attempt_at', at) })
        // PostgreSQL: in id order like every writer of several jobs, never waiting for a job another transaction
        // holds. A job skipped so is only not held back: its claim still goes through its lane, whose open breaker
        // lets one trial call out at a time.
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox as held')
            .select('held.id')
            .where('held.lease_holder', 'is', null)
            .where('held.order_id', 'in', (sub) => sub.selectFrom('orders as r').select('r.id').where(ofPairs(pairs)))
            .$if(engine.lockRows, (qb) => qb.orderBy('held.id').forUpdate().skipLocked()),
        )
        .execute();
    },

    /** One app on the queue (SQLite's file): every other holder is a previous run. PostgreSQL's store overrides it. */
    async releaseAbandonedJobs(holder) {
      const result = await db.updateTable('outbox').set({ lease_holder: null, lease_until: null }).where('lease_holder', 'is not', null).where('lease_holder', '!=', holder).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async finishJob(holder, job, outcome) {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('outbox').where('id', '=', job.id).where('lease_holder', '=', holder).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return false;
        if (outcome.revive && !(await liveClientNumber(trx, job.order.companyId, job.order.clientNumber))) {
          await trx.updateTable('orders').set({ state: 'active', canceled_at: null, deleted_at: null }).where('id', '=', job.orderId).execute();
        }
        if (outcome.status) await appendStatusIn(trx, job.orderId, job.order.companyId, outcome.status);
        return true;
      });
    },

    // Counted in SQL: after a burst of orders the queue holds thousands of jobs, and every pass ends here.
    async queueCount() {
      const row = await db
        .selectFrom('outbox')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.count<number>('last_error').as('failing')])
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), failing: Number(row.failing) > 0 };
    },

    async queueCountsByCompany() {
      const rows = await db
        .selectFrom('outbox')
        .innerJoin('orders', 'orders.id', 'outbox.order_id')
        .select((eb) => ['orders.company_id', eb.fn.countAll<number>().as('pending'), eb.fn.count<number>('outbox.last_error').as('failing')])
        .groupBy('orders.company_id')
        .execute();
      return new Map(rows.map((r) => [r.company_id, { pending: Number(r.pending), failing: Number(r.failing) > 0 }]));
    },

    async queueView(companyId) {
      const jobs = db.selectFrom('outbox').innerJoin('orders', 'orders.id', 'outbox.order_id').where('orders.company_id', '=', companyId);
      const [counts, failing] = await Promise.all([
        jobs
          .select((eb) => [
            eb.fn.countAll<number>().as('pending'),
            eb.fn.count<number>('outbox.last_error').as('retrying'),
            eb.fn.min<number | null>('outbox.next_attempt_at').as('next'),
          ])
          .executeTakeFirstOrThrow(),
        jobs
          .select(['outbox.last_error', 'outbox.last_error_message'])
          .where('outbox.last_error', 'is not', null)
          .orderBy('outbox.next_attempt_at', 'desc')
          .orderBy('outbox.id', 'desc')
          .limit(1)
          .executeTakeFirst(),
      ]);
      return {
        pending: Number(counts.pending),
        retrying: Number(counts.retrying),
        nextAttemptAt: counts.next === null || counts.next === undefined ? null : Number(counts.next),
        lastError: failing?.last_error ?? null,
        lastErrorMessage: storedMessage(failing?.last_error_message),
      };
    },

    async orderJobState(companyId, orderId) {
      const job = await db
        .selectFrom('outbox')
        .innerJoin('orders', 'orders.id', 'outbox.order_id')
        .select(['outbox.action', 'outbox.attempts', 'outbox.next_attempt_at', 'outbox.last_error', 'outbox.last_error_message'])
        .where('outbox.order_id', '=', orderId)
        .where('orders.company_id', '=', companyId)
        .orderBy('outbox.id')
        .limit(1)
        .executeTakeFirst();
      if (!job) return null;
      return {
        action: job.action,
        attempts: Number(job.attempts),
        nextAttemptAt: Number(job.next_attempt_at),
        lastError: job.last_error,
        lastErrorMessage: storedMessage(job.last_error_message),
      };
    },
  };
}
