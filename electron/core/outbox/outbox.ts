import { randomUUID } from 'node:crypto';
import { said } from '../../../shared/messages';
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
import { message as messageOf } from '../../../shared/messages';
import { failureReason, failureRef } from '../providers/service-failure';
import { jitteredBackoff, MAX_FAILED_ATTEMPTS } from './backoff';
import type { BreakerOptions } from './breaker';
import { createClaims, type Job } from '../store/outbox-claims';
import { createLanes, outcomeOf, type Lane, type LaneOf } from './lanes';

export type OutboxAction = OutboxTable['action'];

export interface OutboxDeps {
  db: Db;
  /** The same connection, raw: the hot paths use statements prepared once (Kysely prepares every statement anew). */
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  providers: ProviderRegistry;
  events: EventBus;
  log: Logger;
  /** Delay before the next attempt after n attempts (default: jittered exponential, see backoff.ts). */
  backoff?: (attempts: number) => number;
  /** The lane (shared limit and breaker) of an order's service and its parallel calls: from its connection. */
  laneOf?: LaneOf;
  breaker?: BreakerOptions;
  /** How long stop() waits for the calls that are out (default 5 s); what is still out then is picked up at the next start. */
  stopGraceMs?: number;
}

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

/** How many due jobs one claim reads at most (the services with room take from them). */
const CLAIM_SCAN = 200;

/**
 * Work for the delivery services. Jobs are written in the same transaction as the order; the network
 * call happens after commit. An attempt is recorded before the call, so after a crash or a lost reply
 * the next attempt first asks the service whether it already has the order (create), or repeats a call
 * the service treats as idempotent (update, cancel, delete).
 *
 * Calls run in parallel, up to each service's limit (its connection's "parallel calls", default 8); each
 * job is claimed with this outbox as its holder and a lease (claims.ts), so no job runs twice at once.
 * A service that keeps failing opens its breaker (breaker.ts): its orders wait, not using up their
 * attempts, while the other services' orders go on. A 429 pauses the service until its Retry-After; any
 * Retry-After holds the job until then. Failures otherwise back off with jitter, and after
 * MAX_FAILED_ATTEMPTS the order ends in uploadingError (errorCode 200) saying so.
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
  const backoff = deps.backoff ?? jitteredBackoff;
  const holder = randomUUID();
  const claims = createClaims(db, deps.sqlite, holder);
  const lanes = createLanes(clock, deps.laneOf, deps.breaker);
  /** The jobs out now, each settling when its outcome is recorded. */
  const inFlight = new Set<Promise<void>>();
  let pumping: Promise<number> | null = null;
  let pumpAgain = false;
  let draining: Promise<number> | null = null;
  let drainAgain = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  /** What each company's windows were last told of its queue (companies with an empty queue are left out). */
  const lastPublished = new Map<number, string>();
  const { sqlite } = deps;
  let prepared: ReturnType<typeof prepare> | null = null;

  /** The hot path's statements, prepared once on the raw connection (Kysely prepares every statement anew). */
  function prepare() {
    return {
      remove: sqlite.prepare('DELETE FROM outbox WHERE id = ? AND holder = ?'),
      numbers: sqlite.prepare('UPDATE orders SET provider_number = ?, additional_provider_number = ?, barcode = ?, tracking_url = ? WHERE id = ?'),
      insertJob: sqlite.prepare('INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 0, ?, NULL, ?)'),
      orders: prepareOrderInserts(sqlite),
    };
  }
  const statements = () => (prepared ??= prepare());

  /** Registrations done since the last write, recorded together (see recordSoon). */
  let toRecord: { job: Job; registration: Registration; done: () => void; failed: (error: unknown) => void }[] = [];

  /**
   * Registrations are recorded together: one transaction for the creates that finished in the same turn
   * of the event loop instead of one each (bench create: a commit cost more than the rest of the job).
   * Until then the job stays queued with its attempt counted, so a crash in between makes the next
   * attempt ask the service first.
   */
  function recordSoon(job: Job, registration: Registration): Promise<void> {
    return new Promise((done, failed) => {
      if (toRecord.length === 0) setImmediate(() => void recordRegistrations());
      toRecord.push({ job, registration, done, failed });
    });
  }

  async function recordRegistrations() {
    const batch = toRecord;
    toRecord = [];
    try {
      const st = statements();
      const recorded = await db.connection().execute(async () =>
        sqlite.transaction(() =>
          batch.filter(({ job, registration }) => {
            if (st.remove.run(job.id, holder).changes === 0) return false; // withdrawn while the call was out: the result is dropped
            st.numbers.run(registration.providerNumber, registration.additionalProviderNumber ?? null, registration.barcode ?? null, registration.trackingUrl ?? null, job.order.id);
            st.orders.appendStatus(job.order.id, job.order.company_id, { key: 'uploaded', at: clock.now(), createdProvider: registration.registeredAt ?? null });
            return true;
          }),
        )(),
      );
      const byCompany = new Map<number, string[]>();
      for (const { job } of recorded) byCompany.set(job.order.company_id, [...(byCompany.get(job.order.company_id) ?? []), String(job.order.id)]);
      for (const [companyId, orderIds] of byCompany) events.publish({ type: 'orders.changed', companyId, orderIds });
      for (const item of batch) item.done();
    } catch (error) {
      for (const item of batch) item.failed(error);
    }
  }

  /** Removes the job and records its outcome in one transaction; nothing is recorded when the job was withdrawn meanwhile. */
  async function finish(job: Job, work: (trx: DbOrTrx) => Promise<void>) {
    const done = await db
      .transaction()
      .execute(async (trx) => {
        const removed = await trx.deleteFrom('outbox').where('id', '=', job.id).where('holder', '=', holder).executeTakeFirst();
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
    if (!provider) throw new ProviderRejectedError(said('provider.notAvailable', { service: job.order.provider_key }));
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
    if (!job.order.provider_number || !provider.update) throw new ProviderRejectedError(said('provider.noUpdate', { service: job.order.provider_key }));
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
      if (!call) throw new ProviderRejectedError(said('provider.noWithdraw', { service: job.order.provider_key }));
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

  /** The call(s) of one job; a create's registration is handed back to be recorded with others. */
  async function callService(job: Job): Promise<Registration | undefined> {
    if (job.action === 'create') return runCreate(job);
    if (job.action === 'update') return runUpdate(job);
    await runWithdraw(job);
  }

  /** Runs one claimed job within its service's lane; resolves once its outcome is recorded. */
  async function runJob(job: Job, lane: Lane): Promise<void> {
    if (!(await claims.stillHeld(job))) return; // withdrawn after it was claimed: do not call out
    const trial = lane.breaker.start();
    try {
      const registration = await callService(job);
      lane.breaker.success();
      if (registration) await recordSoon(job, registration);
    } catch (error) {
      if (error instanceof ProviderRejectedError) {
        lane.breaker.success(); // the service answered: it is alive
        await recordRefusal(job, error);
        return;
      }
      await recordFailure(job, lane, error, trial);
    }
  }

  /**
   * A failed call: the job goes back to the queue, or, after MAX_FAILED_ATTEMPTS failures, ends as refused
   * (uploadingError, errorCode 200). What counts is the service answering this order with an error: no
   * answer at all (timeout, unreachable: the service's or the network's trouble, which the breaker sees),
   * an answer with a Retry-After (it said when to come back) and the trial call of an open breaker do
   * not, so a shop offline for a day still gets its orders out afterwards.
   */
  async function recordFailure(job: Job, lane: Lane, error: unknown, trial: boolean) {
    const message = error instanceof Error ? error.message : String(error);
    const retryAfterMs = error instanceof ProviderUnavailableError ? error.retryAfterMs : undefined;
    const now = clock.now();
    if (outcomeOf(error) === 'rate-limited') {
      lane.breaker.success(); // it answered, asking us to slow down: hold the whole service, not just this job
      if (retryAfterMs !== undefined) lane.pausedUntil = Math.max(lane.pausedUntil, now + retryAfterMs);
    } else if (lane.breaker.failure(trial)) {
      log.warn(`outbox: ${lane.key} keeps failing; its orders wait until ${new Date(lane.breaker.trialAt()!).toISOString()}, then one is tried`);
      await claims.holdUntil([...lane.pairs.values()], lane.breaker.trialAt()!);
    }
    const noAnswer = error instanceof ProviderUnavailableError && error.noAnswer !== undefined;
    const counts = retryAfterMs === undefined && !noAnswer && !trial;
    const failures = job.failed_attempts + (counts ? 1 : 0);
    log.child({ companyId: job.order.company_id, orderId: job.order_id, service: job.order.provider_key })
      .warn(`outbox: ${job.action} of order ${job.order_id} failed (attempt ${job.attempts}, ${failures} of ${MAX_FAILED_ATTEMPTS} counted): ${message}`);
    if (failures >= MAX_FAILED_ATTEMPTS) {
      const service = providers.get(job.order.provider_key)?.info.name ?? job.order.provider_key;
      await recordRefusal(job, new ProviderRejectedError(said('outbox.gaveUp', { service, n: failures, reason: failureReason(error) })));
      return;
    }
    // The backoff was set when the job was claimed; a service that said how long to wait is not asked sooner,
    // nor one whose breaker is open before its trial.
    const notBefore = Math.max(retryAfterMs !== undefined ? now + retryAfterMs : 0, lane.breaker.state() === 'open' ? lane.breaker.trialAt()! : 0);
    await claims.release(job, message, messageJson(failureRef(error)), notBefore, counts);
  }

  /** Starts a claimed job; it counts against its lane until its outcome is recorded. */
  function launch(job: Job, lane: Lane) {
    lane.inFlight++;
    const run: Promise<void> = runJob(job, lane)
      .catch((error) => {
        if (!stopped) log.error(`outbox: ${job.action} of order ${job.order_id} could not be recorded`, error);
      })
      .finally(() => {
        lane.inFlight--;
        inFlight.delete(run);
        finishedSincePublish++;
        if (timer) pumpSoon();
      });
    inFlight.add(run);
  }

  /** Claims as many due jobs as the services have room for and starts them. Resolves with how many started. */
  async function claimAndLaunch(): Promise<number> {
    const now = clock.now();
    const candidates = await claims.due(now, CLAIM_SCAN, lanes.blockedPairs());
    const room = new Map<Lane, number>();
    const chosen = new Map<number, Lane>();
    for (const candidate of candidates) {
      const lane = lanes.of(candidate.provider_key, candidate.provider_connect_id);
      const left = room.get(lane) ?? lanes.room(lane);
      room.set(lane, left - 1);
      if (left > 0) chosen.set(candidate.id, lane);
    }
    const jobs = await claims.take(
      candidates.filter((c) => chosen.has(c.id)),
      now,
      (c) => now + backoff(c.attempts + 1),
    );
    for (const job of jobs) launch(job, chosen.get(job.id)!);
    return jobs.length;
  }

  /** One claim at a time; a call while one runs makes it claim again when done. */
  function pump(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      let started = 0;
      do {
        pumpAgain = false;
        started += await claimAndLaunch();
      } while (pumpAgain && !stopped);
      return started;
    })().finally(() => {
      pumping = null;
    });
    return pumping;
  }

  let pumpQueued = false;
  /** A claim soon, after a commit or a finished job; errors are logged, never thrown at the caller. */
  function pumpSoon() {
    if (pumpQueued || stopped) return;
    pumpQueued = true;
    setImmediate(() => {
      pumpQueued = false;
      pump().catch((error) => log.error('outbox pass failed', error));
    });
  }

  let finishedSincePublish = 0;
  /** Tells each company's windows of its queue when it changed (an idle pass would only wake every window). */
  async function publishStates() {
    const finished = finishedSincePublish;
    finishedSincePublish = 0;
    const now = await statesByCompany();
    for (const companyId of new Set([...now.keys(), ...lastPublished.keys()])) {
      const current = now.get(companyId) ?? { pending: 0, waitingForConnection: false };
      const seen = JSON.stringify(current);
      if (finished > 0 || seen !== lastPublished.get(companyId)) events.publish({ type: 'outbox.state', companyId, ...current });
      if (current.pending === 0) lastPublished.delete(companyId);
      else lastPublished.set(companyId, seen);
    }
  }

  /** Runs due jobs until none is left to start and none is out. */
  async function drainLoop(): Promise<number> {
    let processed = 0;
    do {
      drainAgain = false;
      for (;;) {
        const started = await pump();
        processed += started;
        if (inFlight.size === 0) {
          if (started === 0) break;
          continue;
        }
        await Promise.race(inFlight);
      }
    } while (drainAgain && !stopped);
    await publishStates();
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

    /** Runs every due job now (in parallel within each service's limit); concurrent calls share one pass. Resolves with how many jobs ran. */
    drain(): Promise<number> {
      if (draining) {
        drainAgain = true;
        return draining;
      }
      draining = drainLoop().finally(() => {
        draining = null;
      });
      return draining;
    },

    /** Asks for a claim soon (after a commit). */
    kick(): void {
      if (!timer) return; // not started: tests and tools drain by hand
      pumpSoon();
    },

    state,

    /** Gives back the jobs a previous run held when it stopped mid-call or crashed, so they go at once. */
    recover: () => claims.releaseAbandoned(),

    start(intervalMs = 1_000): void {
      if (timer) return;
      stopped = false;
      timer = setInterval(() => {
        pumpSoon();
        publishStates().catch((error) => log.error('outbox state failed', error));
      }, intervalMs);
      timer.unref();
      pumpSoon();
    },

    /**
     * Claims nothing more and waits for the calls that are out, at most stopGraceMs; the queue stays as
     * it is for the next start (a call still out then is asked about first, as after a crash).
     */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await pumping?.catch(() => {});
      if (inFlight.size === 0) return;
      let grace: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        Promise.allSettled([...inFlight]).then(() => true),
        new Promise<boolean>((resolve) => {
          grace = setTimeout(() => resolve(false), deps.stopGraceMs ?? 5_000);
        }),
      ]);
      clearTimeout(grace);
      if (!waited) log.warn(`outbox: stopped with ${inFlight.size} calls still out; their orders are asked about at the next start`);
    },
  };
  return outbox;
}

export type Outbox = ReturnType<typeof createOutbox>;
