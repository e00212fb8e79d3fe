import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Selectable, type Transaction } from 'kysely';
import { storedMessage } from '../../../../shared/messages';
import type { Db, OpenedDatabase } from '../database';
import { registerFold } from '../filter-sql';
import type { OutboxTable, Schema } from '../schema';
import {
  ClientNumberTaken, type ClaimedJob, type ListedOrder, type CreateOutcome, type DueJob, type NewStatus, type OrdersStore, type OrderToCreate,
  type ServicePair, type StoredOrder,
} from './orders-store';
import { needsAttention } from './attention-sql';
import { filteredOrders, listedColumns, listOrders } from './order-search';
import { columnsOf, messageJson, toJob, toListedOrder, toOrder, type OrderRow } from './rows';
import { importedOrderWrites } from './imported-orders';
import { statusHistoryReads } from './status-history';
type Trx = Db | Transaction<Schema>;

/**
 * How long a claimed job stays with its holder. Longer than any job takes (a call times out after 15 s; a
 * CDEK create polls for about 12 s more), so a live holder never loses a job it is still running; a
 * holder that died leaves its jobs to whoever claims after this.
 */
export const LEASE_MS = 10 * 60_000;

/** Ids in parts small enough for one IN list. */
const chunked = <T>(items: T[], size = 500): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));


/** The partial unique index on live clientNumbers: the last word when two writers race for one. */
const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Orders (aliased `r`) of any of the pairs; `IS` matches a missing connection too (PostgreSQL: IS NOT DISTINCT FROM). */
const ofPairs = (pairs: ServicePair[]) =>
  sql<boolean>`(${sql.join(
    pairs.map((p) => sql`(r.provider_key = ${p.providerKey} AND r.provider_connect_id IS ${p.providerConnectId})`),
    sql` OR `,
  )})`;

/**
 * The hot paths' statements (create an order, append a status, claim and record a job), prepared once on
 * the raw connection. Hand-written SQL because the measurement said so (bench create): Kysely's driver
 * prepares every statement anew and builds its query tree per call, which with the commits was most of
 * a POST /orders. They run inside db.connection().execute, so no Kysely transaction is open meanwhile.
 */
function prepareHotPaths(sqlite: BetterSqlite3.Database) {
  const status = sqlite.prepare(
    `INSERT INTO order_statuses (order_id, company_id, key, description, description_message, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const current = sqlite.prepare('UPDATE orders SET status_key = ?, status_description = ?, status_description_message = ?, status_changed_at = ?, updated_at = ? WHERE id = ?');
  const addStatus = (orderId: number, companyId: number, s: NewStatus) =>
    status.run(orderId, companyId, s.key, s.description ?? null, messageJson(s.descriptionMessage), s.at, s.providerCode ?? null, s.providerName ?? null, s.providerDescription ?? null,
      s.createdProvider ?? null, s.errorCode ?? null);
  return {
    taken: sqlite.prepare<[number, string]>("SELECT 1 FROM orders WHERE company_id = ? AND client_number = ? AND state = 'active' LIMIT 1").pluck(),
    order: sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city,
         cod_kopecks, assessed_kopecks, quoted_delivery_kopecks, delivery_kopecks, payload, state, status_key, status_description, status_changed_at, created_at, updated_at)
       VALUES (@company_id, @client_number, @provider_key, @provider_connect_id, @recipient_name, @recipient_phone, @recipient_city,
         @cod_kopecks, @assessed_kopecks, @quoted_delivery_kopecks, @delivery_kopecks, @payload, 'active', @status_key, @status_description, @at, @at, @at)`,
    ),
    job: sqlite.prepare("INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 0, ?, NULL, ?)"),
    addStatus,
    /** Records a status and makes it the order's current one. */
    appendStatus(orderId: number, companyId: number, s: NewStatus) {
      addStatus(orderId, companyId, s);
      current.run(s.key, s.description ?? null, messageJson(s.descriptionMessage), s.at, s.at, orderId);
    },
    // The lease condition again: a job another holder took between the read and this write stays theirs.
    claim: sqlite.prepare(
      'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, holder = ?, lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until <= ?)',
    ),
    orderById: sqlite.prepare('SELECT * FROM orders WHERE id = ?'),
    jobById: sqlite.prepare('SELECT * FROM outbox WHERE id = ?'),
    held: sqlite.prepare('SELECT 1 FROM outbox WHERE id = ? AND holder = ?'),
    removeHeld: sqlite.prepare('DELETE FROM outbox WHERE id = ? AND holder = ?'),
    numbers: sqlite.prepare('UPDATE orders SET provider_number = ?, additional_provider_number = ?, barcode = ?, tracking_url = ? WHERE id = ?'),
  };
}

/** Records a status and makes it the order's current one, inside the caller's transaction. */
async function appendStatusIn(trx: Trx, orderId: number, companyId: number, status: NewStatus): Promise<void> {
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

function findOrderIn(trx: Trx, companyId: number, orderId: number) {
  return trx.selectFrom('orders').selectAll().where('id', '=', orderId).where('company_id', '=', companyId).where('state', '!=', 'deleted').executeTakeFirst();
}

async function withJobs(trx: Trx, companyId: number, orderId: number) {
  const row = await findOrderIn(trx, companyId, orderId);
  if (!row) return undefined;
  const jobs = await trx.selectFrom('outbox').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  return { order: toOrder(row), jobs: jobs.map(toJob) };
}

/** The orders store on SQLite (Kysely over better-sqlite3; the hot paths on statements prepared once). */
export function createSqliteOrdersStore(opened: Pick<OpenedDatabase, 'db' | 'sqlite'>): OrdersStore {
  const { db, sqlite } = opened;
  registerFold(sqlite); // the status lists' text filters compare through it, as the reference lists do
  let prepared: ReturnType<typeof prepareHotPaths> | null = null;
  const st = () => (prepared ??= prepareHotPaths(sqlite));
  /** Runs synchronous statements on the raw connection while Kysely's connection is held (nothing else interleaves). */
  const raw = <T>(work: () => T): Promise<T> => db.connection().execute(async () => work());

  /** One order, in its own savepoint: a refused one leaves the others of its group. */
  const createOne = sqlite.transaction((o: OrderToCreate): CreateOutcome => {
    const s = st();
    if (s.taken.get(o.companyId, o.payload.order.clientNumber) !== undefined) return { clientNumberTaken: true };
    const id = Number(s.order.run({ company_id: o.companyId, ...columnsOf(o.payload), status_key: 'uploading', status_description: null, at: o.at }).lastInsertRowid);
    s.addStatus(id, o.companyId, { key: 'uploading', at: o.at });
    s.job.run(id, 'create', o.at, o.at);
    return { orderId: id };
  });
  const createAll = sqlite.transaction((orders: OrderToCreate[]) =>
    orders.map((o) => {
      try {
        return createOne(o);
      } catch (error) {
        if (isUniqueViolation(error)) return { clientNumberTaken: true } as const;
        throw error;
      }
    }),
  );

  const store: OrdersStore = {
    ...statusHistoryReads(db, sqlite),
    ...importedOrderWrites(db, sqlite),

    createOrders: (orders) => raw(() => createAll(orders)),

    clientNumberTaken: (companyId, clientNumber, exceptOrderId) => liveClientNumber(db, companyId, clientNumber, exceptOrderId),

    async findOrder(companyId, orderId) {
      const row = await findOrderIn(db, companyId, orderId);
      return row && toOrder(row);
    },

    async findOrders(companyId, orderIds) {
      const found = new Map<number, StoredOrder>();
      for (const part of chunked(orderIds)) {
        const rows = await db.selectFrom('orders').selectAll().where('company_id', '=', companyId).where('state', '!=', 'deleted').where('id', 'in', part).execute();
        for (const row of rows) found.set(row.id, toOrder(row));
      }
      return found;
    },

    findOrderWithJobs: (companyId, orderId) => withJobs(db, companyId, orderId),

    async changeOrder(companyId, orderId, at, decide) {
      let clientNumber = '';
      return db
        .transaction()
        .execute(async (trx) => {
          const change = decide(await withJobs(trx, companyId, orderId));
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
          if (isUniqueViolation(error)) throw new ClientNumberTaken(clientNumber);
          throw error;
        });
    },

    appendStatus: (orderId, companyId, status) => appendStatusIn(db, orderId, companyId, status),

    async listOrders(companyId, query) {
      const page = await listOrders(db, companyId, query);
      return { orders: page.rows.map(toListedOrder), total: page.total, capped: page.capped };
    },

    async listedOrders(companyId, selection) {
      if ('filter' in selection) return (await filteredOrders(db, companyId, selection.filter).select(listedColumns).orderBy('id', 'desc').execute()).map(toListedOrder);
      const found = new Map<number, ListedOrder>();
      for (const part of chunked([...new Set(selection.orderIds)])) {
        const rows = await db.selectFrom('orders').select(listedColumns).where('company_id', '=', companyId).where('state', '!=', 'deleted').where('id', 'in', part).execute();
        for (const row of rows) found.set(row.id, toListedOrder(row));
      }
      return selection.orderIds.flatMap((id) => found.get(id) ?? []);
    },

    async attentionCounts(companyId) {
      const rows = await db
        .selectFrom('orders')
        .where('company_id', '=', companyId)
        .where(needsAttention)
        .select((eb) => ['status_key', sql<number>`provider_number IS NOT NULL`.as('registered'), eb.fn.countAll<number>().as('n')])
        .groupBy(['status_key', sql`provider_number IS NOT NULL`])
        .execute();
      return rows.map((r) => ({ statusKey: r.status_key, registered: Boolean(r.registered), orders: Number(r.n) }));
    },

    async markAttentionSeen(companyId, orderIds) {
      const result = await db
        .updateTable('orders')
        .set({ attention_seen_at: sql`status_changed_at` })
        .where('company_id', '=', companyId)
        .where('id', 'in', orderIds)
        .where(needsAttention)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
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

    async claimJobs(holder, candidates, now, retryAt) {
      if (candidates.length === 0) return [];
      const s = st();
      return raw(() =>
        sqlite.transaction(() =>
          candidates.flatMap((c): ClaimedJob[] => {
            if (s.claim.run(retryAt(c), holder, now + LEASE_MS, c.id, now).changes === 0) return [];
            const job = s.jobById.get(c.id) as Selectable<OutboxTable>;
            return [{ ...toJob(job), order: toOrder(s.orderById.get(c.orderId) as OrderRow) }];
          }),
        )(),
      );
    },

    jobStillHeld: (holder, jobId) => raw(() => st().held.get(jobId, holder) !== undefined),

    async releaseJob(holder, jobId, failure) {
      await db
        .updateTable('outbox')
        .set((eb) => ({
          last_error: failure.error,
          last_error_message: messageJson(failure.errorMessage),
          next_attempt_at: sql<number>`max(${eb.ref('next_attempt_at')}, ${failure.notBefore})`,
          failed_attempts: failure.counts ? sql<number>`${eb.ref('failed_attempts')} + 1` : eb.ref('failed_attempts'),
          holder: null,
          lease_until: null,
        }))
        .where('id', '=', jobId)
        .where('holder', '=', holder)
        .execute();
    },

    async holdJobsUntil(pairs, at) {
      if (pairs.length === 0) return;
      await db
        .updateTable('outbox')
        .set((eb) => ({ next_attempt_at: sql<number>`max(${eb.ref('next_attempt_at')}, ${at})` }))
        .where('holder', 'is', null)
        .where('order_id', 'in', (qb) => qb.selectFrom('orders as r').select('r.id').where(ofPairs(pairs)))
        .execute();
    },

    async releaseAbandonedJobs(holder) {
      const result = await db.updateTable('outbox').set({ holder: null, lease_until: null }).where('holder', 'is not', null).where('holder', '!=', holder).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async recordRegistrations(holder, registrations) {
      const s = st();
      return raw(() =>
        sqlite.transaction(() =>
          registrations.flatMap((r) => {
            if (s.removeHeld.run(r.jobId, holder).changes === 0) return []; // withdrawn while the call was out: the result is dropped
            s.numbers.run(r.providerNumber, r.additionalProviderNumber, r.barcode, r.trackingUrl, r.orderId);
            s.appendStatus(r.orderId, r.companyId, r.status);
            return [r.jobId];
          }),
        )(),
      );
    },

    async finishJob(holder, job, outcome) {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('outbox').where('id', '=', job.id).where('holder', '=', holder).executeTakeFirst();
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
        .select((eb) => [eb.fn.countAll<number>().as('pending'), sql<number | null>`max(last_error IS NOT NULL)`.as('failing')])
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), failing: row.failing === 1 };
    },

    async queueCountsByCompany() {
      const rows = await db
        .selectFrom('outbox')
        .innerJoin('orders', 'orders.id', 'outbox.order_id')
        .select((eb) => ['orders.company_id', eb.fn.countAll<number>().as('pending'), sql<number | null>`max(outbox.last_error IS NOT NULL)`.as('failing')])
        .groupBy('orders.company_id')
        .execute();
      return new Map(rows.map((r) => [r.company_id, { pending: Number(r.pending), failing: r.failing === 1 }]));
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
  };
  return store;
}
