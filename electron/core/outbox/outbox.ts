import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Selectable } from 'kysely';
import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { appendStatus, messageJson, prepareOrderInserts, statusMessage, type DbOrTrx } from '../orders/order-repository';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type Registration, type ShipmentRequest } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import type { OrdersTable, OutboxTable } from '../store/schema';
import { backoffDelay } from './backoff';
import { message as messageOf } from '../../../shared/messages';

export type OutboxAction = OutboxTable['action'];

export interface OutboxDeps {
  db: Db;
  /** The same connection, raw: the hot paths use statements prepared once (Kysely prepares every statement anew). */
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  providers: ProviderRegistry;
  events: EventBus;
  log: Logger;
  backoff?: (attempts: number) => number;
  /** How many due jobs one pass takes. */
  batchSize?: number;
}

type Job = Selectable<OutboxTable> & { order: Selectable<OrdersTable> };

/** What a carrier is given for one stored order. */
export const requestFor = (order: Selectable<OrdersTable>): ShipmentRequest => ({
  companyId: order.company_id,
  orderId: order.id,
  clientNumber: order.client_number,
  order: JSON.parse(order.payload),
  providerNumber: order.provider_number,
  additionalProviderNumber: order.additional_provider_number,
});

/** The job is gone: the order was canceled or deleted while its call was out. Its result is dropped. */
class Withdrawn extends Error {}

/**
 * Work for the delivery services. Jobs are written in the same transaction as the order; the network
 * call happens after commit. An attempt is recorded before the call, so after a crash or a lost reply
 * the next attempt first asks the service whether it already has the order (create), or repeats a call
 * the service treats as idempotent (update, cancel, delete).
 *
 * Order of work: the jobs of one order run one at a time, oldest first (an update never overtakes its
 * create, a cancel never overtakes an update). A create also waits for the older jobs of canceled or
 * deleted orders with the same clientNumber at the same service, so a reused clientNumber reaches the
 * service only after the old order is gone there.
 *
 * Actions: create → register (uploaded, numbers); update → the service's update (uploaded again);
 * cancel / delete → the service cancels or deletes its shipment (the order here is already canceled
 * or deleted). A refusal (ProviderRejectedError) is final: create/update end in uploadingError with
 * errorCode 200; a refused cancel/delete records a `problem` status and, while its clientNumber is still
 * free, brings the order back, since the parcel is still on its way.
 */
export function createOutbox(deps: OutboxDeps) {
  const { db, clock, providers, events, log } = deps;
  const backoff = deps.backoff ?? backoffDelay;
  const batchSize = deps.batchSize ?? 50;
  let running: Promise<number> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  /** What each company's windows were last told of its queue (companies with an empty queue are left out). */
  const lastPublished = new Map<number, string>();
  const { sqlite } = deps;
  let prepared: ReturnType<typeof prepare> | null = null;

  /** The hot path's statements, prepared once on the raw connection (Kysely prepares every statement anew). */
  function prepare() {
    return {
      attempt: sqlite.prepare('UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?'),
      order: sqlite.prepare('SELECT * FROM orders WHERE id = ?'),
      queued: sqlite.prepare('SELECT 1 FROM outbox WHERE id = ?'),
      remove: sqlite.prepare('DELETE FROM outbox WHERE id = ?'),
      numbers: sqlite.prepare('UPDATE orders SET provider_number = ?, additional_provider_number = ?, barcode = ?, tracking_url = ? WHERE id = ?'),
      insertJob: sqlite.prepare('INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 0, ?, NULL, ?)'),
      orders: prepareOrderInserts(sqlite),
    };
  }
  const statements = () => (prepared ??= prepare());

  async function claimDue(): Promise<Job[]> {
    const now = clock.now();
    const rows = await db
      .selectFrom('outbox as o')
      .selectAll('o')
      .where('o.next_attempt_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('outbox as p').select(sql`1`.as('x')).whereRef('p.order_id', '=', 'o.order_id').whereRef('p.id', '<', 'o.id'))),
      )
      .where(
        sql<boolean>`NOT (o.action = 'create' AND EXISTS (
          SELECT 1 FROM orders me
          JOIN orders other ON other.company_id = me.company_id AND other.client_number = me.client_number
            AND other.provider_key = me.provider_key AND other.id != me.id
          JOIN outbox p ON p.order_id = other.id AND p.id < o.id
          WHERE me.id = o.order_id))`,
      )
      .orderBy('o.next_attempt_at')
      .orderBy('o.id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return [];
    const st = statements();
    // Record the attempts before calling out (this is what makes a re-send ask first), the batch in one transaction.
    return db.connection().execute(async () =>
      sqlite.transaction(() =>
        rows.map((row): Job => {
          st.attempt.run(row.attempts + 1, now + backoff(row.attempts + 1), row.id);
          return { ...row, attempts: row.attempts + 1, order: st.order.get(row.order_id) as Selectable<OrdersTable> };
        }),
      )(),
    );
  }

  // Through Kysely's connection like every raw statement here, so an open Kysely transaction's uncommitted work is never read.
  const stillQueued = (job: Job) => db.connection().execute(async () => statements().queued.get(job.id) !== undefined);

  /**
   * Registrations are recorded together: one transaction for the creates of a claimed batch instead of
   * one each (bench create: a commit cost more than the rest of the job). Until then the job stays
   * queued with its attempt counted, so a crash in between makes the next attempt ask the service first.
   */
  async function recordRegistrations(done: { job: Job; registration: Registration }[]) {
    if (done.length === 0) return;
    const st = statements();
    const recorded = await db.connection().execute(async () =>
      sqlite.transaction(() =>
        done.filter(({ job, registration }) => {
          if (st.remove.run(job.id).changes === 0) return false; // withdrawn while the call was out: the result is dropped
          st.numbers.run(registration.providerNumber, registration.additionalProviderNumber ?? null, registration.barcode ?? null, registration.trackingUrl ?? null, job.order.id);
          st.orders.appendStatus(job.order.id, job.order.company_id, { key: 'uploaded', at: clock.now(), createdProvider: registration.registeredAt ?? null });
          return true;
        }),
      )(),
    );
    const byCompany = new Map<number, string[]>();
    for (const { job } of recorded) byCompany.set(job.order.company_id, [...(byCompany.get(job.order.company_id) ?? []), String(job.order.id)]);
    for (const [companyId, orderIds] of byCompany) events.publish({ type: 'orders.changed', companyId, orderIds });
  }

  /** Removes the job and records its outcome in one transaction; nothing is recorded when the job was withdrawn meanwhile. */
  async function finish(job: Job, work: (trx: DbOrTrx) => Promise<void>) {
    const done = await db
      .transaction()
      .execute(async (trx) => {
        const removed = await trx.deleteFrom('outbox').where('id', '=', job.id).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) throw new Withdrawn();
        await work(trx);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof Withdrawn) return false;
        throw error;
      });
    if (done) events.publish({ type: 'orders.changed', companyId: job.order.company_id, orderIds: [String(job.order.id)] });
  }

  function providerOf(job: Job): Carrier {
    const provider = providers.get(job.order.provider_key);
    if (!provider) throw new ProviderRejectedError(`delivery service ${job.order.provider_key} is not available`);
    return provider;
  }

  /** Registers the order (or finds it, on a second attempt); the caller records the registration. */
  async function runCreate(job: Job): Promise<Registration> {
    const provider = providerOf(job);
    const request = requestFor(job.order);
    return (job.attempts > 1 ? await provider.find(request) : null) ?? (await provider.register(request));
  }

  /** Sends the changes; a change queued behind a transfer the service then refused registers the new data instead. */
  async function runUpdate(job: Job): Promise<Registration | undefined> {
    const provider = providerOf(job);
    if (!job.order.provider_number && provider.update) return runCreate(job);
    if (!job.order.provider_number || !provider.update) throw new ProviderRejectedError(`${job.order.provider_key} does not change registered orders`);
    await provider.update(job.order.provider_number, requestFor(job.order));
    await finish(job, (trx) =>
      appendStatus(trx, job.order.id, job.order.company_id, { key: 'uploaded', at: clock.now(), ...statusMessage(messageOf('order.changesAccepted')) }),
    );
  }

  /** Takes the order back at its service: cancel where the service cancels, delete where it deletes. */
  async function runWithdraw(job: Job) {
    const provider = providerOf(job);
    const request = requestFor(job.order);
    // A create may have reached the service without our hearing back: ask it by clientNumber.
    const providerNumber = job.order.provider_number ?? (await provider.find(request))?.providerNumber ?? null;
    if (providerNumber) {
      const caps = provider.info.capabilities;
      const keeps = caps.update || caps.cancel; // a service that keeps registered orders cancels them
      const call =
        job.action === 'delete' && !keeps && provider.remove
          ? provider.remove
          : caps.cancel && provider.cancel
            ? provider.cancel
            : (provider.remove ?? provider.cancel);
      if (!call) throw new ProviderRejectedError(`${job.order.provider_key} cannot take an order back`);
      await call.call(provider, providerNumber, request);
    }
    await finish(job, async () => {});
  }

  /** The service refused: the order shows why (errorCode 200). */
  async function recordRefusal(job: Job, error: ProviderRejectedError) {
    const at = clock.now();
    const status = { at, errorCode: '200', providerCode: error.providerCode ?? null };
    if (job.action === 'create' || job.action === 'update') {
      // The refusal's own text stays as the service wrote it; ours comes with its key.
      const reason = error.ref ?? error.description;
      const recorded = job.action === 'update' && job.order.provider_number ? statusMessage(messageOf('provider.refusedChanges', { reason })) : error.ref ? statusMessage(error.ref) : { description: error.description };
      await finish(job, (trx) => appendStatus(trx, job.order.id, job.order.company_id, { ...status, key: 'uploadingError', ...recorded }));
      return;
    }
    // A refused cancel/delete: the parcel is still on its way at the service.
    await finish(job, async (trx) => {
      const order = await trx.selectFrom('orders').select(['state', 'client_number', 'company_id']).where('id', '=', job.order.id).executeTakeFirstOrThrow();
      const taken = await trx
        .selectFrom('orders')
        .select('id')
        .where('company_id', '=', order.company_id)
        .where('client_number', '=', order.client_number)
        .where('state', '=', 'active')
        .executeTakeFirst();
      if (!taken) await trx.updateTable('orders').set({ state: 'active', canceled_at: null, deleted_at: null }).where('id', '=', job.order.id).execute();
      await appendStatus(trx, job.order.id, job.order.company_id, {
        ...status,
        key: 'problem',
        ...statusMessage(messageOf(job.action === 'cancel' ? 'provider.refusedCancel' : 'provider.refusedDelete', { reason: error.ref ?? error.description })),
      });
    });
  }

  /** Runs one job; a create's registration is handed back to be recorded with the batch's others. */
  async function runJob(job: Job): Promise<Registration | undefined> {
    try {
      if (!(await stillQueued(job))) return; // withdrawn after it was claimed: do not call out
      if (job.action === 'create') return await runCreate(job);
      else if (job.action === 'update') return await runUpdate(job);
      else await runWithdraw(job);
    } catch (error) {
      if (error instanceof ProviderRejectedError) {
        await recordRefusal(job, error);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      log.child({ companyId: job.order.company_id, orderId: job.order_id, service: job.order.provider_key }).warn(`outbox: ${job.action} of order ${job.order_id} failed (attempt ${job.attempts}): ${message}`);
      // The backoff was set when the job was claimed; a service that said how long to wait is not asked sooner.
      const notBefore = error instanceof ProviderUnavailableError && error.retryAfterMs !== undefined ? clock.now() + error.retryAfterMs : 0;
      await db
        .updateTable('outbox')
        .set((eb) => ({ last_error: message, last_error_message: messageJson(error instanceof ProviderUnavailableError ? error.ref : undefined), next_attempt_at: sql<number>`max(${eb.ref('next_attempt_at')}, ${notBefore})` }))
        .where('id', '=', job.id)
        .execute();
    }
  }

  async function drainLoop(): Promise<number> {
    let processed = 0;
    do {
      again = false;
      for (;;) {
        const jobs = await claimDue();
        if (jobs.length === 0) break;
        const registered: { job: Job; registration: Registration }[] = [];
        for (const job of jobs) {
          const registration = await runJob(job);
          if (registration) registered.push({ job, registration });
          // better-sqlite3 answers synchronously, so without this a long queue never lets the window breathe.
          await new Promise((resolve) => setImmediate(resolve));
        }
        await recordRegistrations(registered);
        processed += jobs.length;
      }
    } while (again);
    // The timer runs a pass every second: an idle pass with nothing new would only wake every window.
    const now = await statesByCompany();
    for (const companyId of new Set([...now.keys(), ...lastPublished.keys()])) {
      const current = now.get(companyId) ?? { pending: 0, waitingForConnection: false };
      const seen = JSON.stringify(current);
      if (processed > 0 || seen !== lastPublished.get(companyId)) events.publish({ type: 'outbox.state', companyId, ...current });
      if (current.pending === 0) lastPublished.delete(companyId);
      else lastPublished.set(companyId, seen);
    }
    return processed;
  }

  /** Counted in SQL: after a burst of orders the queue holds thousands of jobs, and every pass ends here. */
  async function state() {
    const row = await db
      .selectFrom('outbox')
      .select((eb) => [eb.fn.countAll<number>().as('pending'), sql<number | null>`max(last_error IS NOT NULL)`.as('failing')])
      .executeTakeFirstOrThrow();
    return { pending: Number(row.pending), waitingForConnection: row.failing === 1 };
  }

  /** Each company's part of the queue: a window hears of its own company's orders only. */
  async function statesByCompany() {
    const rows = await db
      .selectFrom('outbox')
      .innerJoin('orders', 'orders.id', 'outbox.order_id')
      .select((eb) => ['orders.company_id', eb.fn.countAll<number>().as('pending'), sql<number | null>`max(outbox.last_error IS NOT NULL)`.as('failing')])
      .groupBy('orders.company_id')
      .execute();
    return new Map(rows.map((r) => [r.company_id, { pending: Number(r.pending), waitingForConnection: r.failing === 1 }]));
  }


  const outbox = {
    /**
     * Queues work for an order inside the caller's transaction on the raw connection (the caller holds
     * Kysely's connection); prepared once, for the create path.
     */
    enqueueNow(orderId: number, action: OutboxAction): void {
      const now = clock.now();
      statements().insertJob.run(orderId, action, now, now);
    },

    /** Queues work for an order inside the caller's transaction. */
    async enqueue(trx: DbOrTrx, orderId: number, action: OutboxAction): Promise<void> {
      const now = clock.now();
      await trx.insertInto('outbox').values({ order_id: orderId, action, attempts: 0, next_attempt_at: now, last_error: null, created_at: now }).execute();
    },

    /** Runs every due job now; concurrent calls share one pass. Resolves with how many jobs ran. */
    drain(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = drainLoop().finally(() => {
        running = null;
      });
      return running;
    },

    /** Asks for a pass soon (after a commit); errors are logged, never thrown at the caller. */
    kick(): void {
      if (!timer) return; // not started: tests and tools drain by hand
      setImmediate(() => outbox.drain().catch((error) => log.error('outbox pass failed', error)));
    },

    state,

    start(intervalMs = 1_000): void {
      if (timer) return;
      timer = setInterval(() => outbox.kick(), intervalMs);
      timer.unref();
      outbox.kick();
    },

    /** Stops the timer and waits for the pass under way, so no write is cut off. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
  return outbox;
}

export type Outbox = ReturnType<typeof createOutbox>;
