import { randomUUID } from 'node:crypto';
import { said } from '../../../shared/messages';
import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { statusMessage } from '../orders/status-message';
import { withCallSlot, type CallSlot } from '../providers/between-calls';
import { CredentialsRefusedError, ProviderRejectedError, ProviderUnavailableError, type Carrier, type Registration, type ShipmentRequest } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { ClaimedJob as Job, JobOutcome, OrdersStore, OutboxAction, StoredOrder } from '../store/orders/orders-store';
import { message as messageOf } from '../../../shared/messages';
import { failureReason, failureRef } from '../providers/service-failure';
import { jitteredBackoff, MAX_FAILED_ATTEMPTS } from './backoff';
import type { BreakerOptions } from './breaker';
import { createLanes, outcomeOf, ServicePausedError, type Lane, type LaneOf } from './lanes';

export type { OutboxAction };

export interface OutboxDeps {
  /** This instance's name on the jobs it leases (app.ts: the instance's id; a new one when not given). */
  holder?: string;
  store: OrdersStore;
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
  /**
   * How long a claimed job stays this outbox's (default LEASE_MS_DEFAULT), renewed every third of it while its call is
   * out: another instance on the database takes the job only when this one died and the lease ran out.
   */
  leaseMs?: number;
}

/** An outbox's lease on the jobs it claims: a dead instance's jobs go to another within this. */
export const LEASE_MS_DEFAULT = 60_000;

/** What a carrier is given for one stored order. */
export const requestFor = (order: StoredOrder): ShipmentRequest => ({
  companyId: order.companyId,
  orderId: order.id,
  clientNumber: order.clientNumber,
  order: order.payload,
  providerNumber: order.providerNumber,
  additionalProviderNumber: order.additionalProviderNumber,
});

/**
 * How long a connection whose credentials the service refused waits before one of its orders tries again (unless
 * the connection is saved meanwhile, see credentialsChanged): the login will not mend itself, so it is not asked
 * again and again, nor do its orders use up their attempts meanwhile.
 */
export const CREDENTIALS_PAUSE_MS = 10 * 60_000;
// The pause lives in this instance's memory (its lane), not in the store, and that is enough: it only spares the
// service calls this instance would make with a login refused to it, and each instance learns of a refusal from its
// own first call (one call each, none of them counted against the orders' attempts). A connection saved in any
// instance lifts the pause in every one: each loads the connections again when told (app.ts, the relay's `kept`).

/** How many due jobs one claim reads at most (the services with room take from them). */
const CLAIM_SCAN = 200;
/**
 * Beyond the room of the services called so far, how many due jobs a claim reads for services not called yet. A claim
 * reads no more than can start (the services at their limit are left out of the scan already): each row read costs
 * (bench create, 12,000 jobs waiting: ≈ 1.4 ms a scan of 24 rows, 4.3 ms of 200, load 11), and while orders are
 * being created the outbox claims after every call that ends.
 */
const UNSEEN_SCAN = 32;

/**
 * Work for the delivery services. Jobs are written in the same transaction as the order; the network
 * call happens after commit. An attempt is recorded before the call, so after a crash or a lost reply
 * the next attempt first asks the service whether it already has the order (create), or repeats a call
 * the service treats as idempotent (update, cancel, delete).
 *
 * Calls run in parallel, up to each service's limit (its connection's "parallel calls", default 8); each
 * job is claimed with this outbox as its holder and a lease (the orders store), so no job runs twice at once.
 * A job holds a place in its lane while it calls; waiting between its calls (CDEK checking a new order before
 * its number can be read) it gives the place back, and gets the next free one before any new job starts
 * (lanes.ts, providers/between-calls.ts): never more calls out than the limit, while the service's checks overlap.
 * A service that keeps failing opens its breaker (breaker.ts): its orders wait, not using up their
 * attempts, while the other services' orders go on. A 429 pauses the service until its Retry-After; any
 * Retry-After holds the job until then. Refused credentials pause the connection (CREDENTIALS_PAUSE_MS, or until
 * a connection is saved) and its orders say so (message `outbox.credentialsRefused`), without using up attempts. Failures otherwise back off with jitter, and after
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
  const { store, clock, providers, events, log } = deps;
  const backoff = deps.backoff ?? jitteredBackoff;
  /** This instance's name on the jobs it leases. */
  const holder = deps.holder ?? randomUUID();
  const leaseMs = deps.leaseMs ?? LEASE_MS_DEFAULT;
  /** The jobs out now by id (their leases renewLeases moves on), each settling when its outcome is recorded. */
  const out = new Map<number, Promise<void>>();
  let renewTimer: NodeJS.Timeout | null = null;
  /** Wakes a drain waiting for a place to free up (a job ended or waits between its calls). */
  let wakeDrain: (() => void) | null = null;
  const lanes = createLanes(clock, deps.laneOf, deps.breaker, () => {
    wakeDrain?.();
    if (timer) pumpSoon();
  });
  let pumping: Promise<number> | null = null;
  let pumpAgain = false;
  let draining: Promise<number> | null = null;
  let drainAgain = false;
  let timer: NodeJS.Timeout | null = null;
  let passMs = 1_000;
  let stopped = false;
  /** What each company's windows were last told of its queue (companies with an empty queue are left out). */
  const lastPublished = new Map<number, string>();

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
      const at = clock.now();
      const recordedIds = new Set(
        await store.recordRegistrations(
          holder,
          batch.map(({ job, registration }) => ({
            jobId: job.id,
            orderId: job.order.id,
            companyId: job.order.companyId,
            providerNumber: registration.providerNumber,
            additionalProviderNumber: registration.additionalProviderNumber ?? null,
            barcode: registration.barcode ?? null,
            trackingUrl: registration.trackingUrl ?? null,
            status: { key: 'uploaded', at, createdProvider: registration.registeredAt ?? null },
          })),
        ),
      );
      // A job withdrawn while its call was out is not recorded: its result is dropped.
      const recorded = batch.filter(({ job }) => recordedIds.has(job.id));
      const byCompany = new Map<number, string[]>();
      for (const { job } of recorded) byCompany.set(job.order.companyId, [...(byCompany.get(job.order.companyId) ?? []), String(job.order.id)]);
      for (const [companyId, orderIds] of byCompany) events.publish({ type: 'orders.changed', companyId, orderIds });
      for (const item of batch) item.done();
    } catch (error) {
      for (const item of batch) item.failed(error);
    }
  }

  /** Removes the job and records its outcome in one transaction; nothing is recorded when the job was withdrawn meanwhile. */
  async function finish(job: Job, outcome: JobOutcome) {
    if (await store.finishJob(holder, job, outcome)) events.publish({ type: 'orders.changed', companyId: job.order.companyId, orderIds: [String(job.order.id)] });
  }

  function providerOf(job: Job): Carrier {
    const provider = providers.get(job.order.providerKey);
    if (!provider) throw new ProviderRejectedError(said('provider.notAvailable', { service: job.order.providerKey }));
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
    if (!job.order.providerNumber && provider.update) return runCreate(job);
    if (!job.order.providerNumber || !provider.update) throw new ProviderRejectedError(said('provider.noUpdate', { service: job.order.providerKey }));
    await provider.update(job.order.providerNumber, requestFor(job.order));
    await finish(job, { status: { key: 'uploaded', at: clock.now(), ...statusMessage(messageOf('order.changesAccepted')) } });
  }

  /** Takes the order back at its service: cancel where the service cancels, delete where it deletes. */
  async function runWithdraw(job: Job) {
    const provider = providerOf(job);
    const request = requestFor(job.order);
    // A create may have reached the service without our hearing back: ask it by clientNumber.
    const providerNumber = job.order.providerNumber ?? (await provider.find(request))?.providerNumber ?? null;
    if (providerNumber) {
      const caps = provider.info.capabilities;
      const keeps = caps.update || caps.cancel; // a service that keeps registered orders cancels them
      const call =
        job.action === 'delete' && !keeps && provider.remove
          ? provider.remove
          : caps.cancel && provider.cancel
            ? provider.cancel
            : (provider.remove ?? provider.cancel);
      if (!call) throw new ProviderRejectedError(said('provider.noWithdraw', { service: job.order.providerKey }));
      await call.call(provider, providerNumber, request);
    }
    await finish(job, {});
  }

  /** The service refused: the order shows why (errorCode 200). */
  async function recordRefusal(job: Job, error: ProviderRejectedError) {
    const at = clock.now();
    const status = { at, errorCode: '200', providerCode: error.providerCode ?? null };
    if (job.action === 'create' || job.action === 'update') {
      // The refusal's own text stays as the service wrote it; ours comes with its key.
      const reason = error.ref ?? error.description;
      const recorded = job.action === 'update' && job.order.providerNumber ? statusMessage(messageOf('provider.refusedChanges', { reason })) : error.ref ? statusMessage(error.ref) : { description: error.description };
      await finish(job, { status: { ...status, key: 'uploadingError', ...recorded } });
      return;
    }
    // A refused cancel/delete: the parcel is still on its way at the service, so the order is live again
    // (unless its clientNumber was taken meanwhile).
    await finish(job, {
      revive: true,
      status: {
        ...status,
        key: 'problem',
        ...statusMessage(messageOf(job.action === 'cancel' ? 'provider.refusedCancel' : 'provider.refusedDelete', { reason: error.ref ?? error.description })),
      },
    });
  }

  /** The call(s) of one job; a create's registration is handed back to be recorded with others. */
  async function callService(job: Job): Promise<Registration | undefined> {
    if (job.action === 'create') return runCreate(job);
    if (job.action === 'update') return runUpdate(job);
    await runWithdraw(job);
  }

  /** The service answered a call: it is alive and took the connection's credentials. */
  function answered(lane: Lane) {
    lane.breaker.success();
    lane.credentialsRefused = false;
  }

  /** Runs one claimed job within its service's lane, holding a place there while it calls; resolves once its outcome is recorded. */
  async function runJob(job: Job, lane: Lane, slot: CallSlot): Promise<void> {
    if (!(await store.jobStillHeld(holder, job.id))) return; // withdrawn after it was claimed: do not call out
    const trial = lane.breaker.start();
    try {
      const registration = await withCallSlot(slot, () => callService(job));
      answered(lane);
      if (registration) await recordSoon(job, registration);
    } catch (error) {
      if (error instanceof ProviderRejectedError) {
        answered(lane); // the service answered: it is alive, and took the connection's credentials
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
    const now = clock.now();
    // Back from a wait between its calls while the service is paused: nothing was asked of it; back until the pause ends.
    const paused = error instanceof ServicePausedError;
    const retryAfterMs = error instanceof ProviderUnavailableError ? error.retryAfterMs : paused ? Math.max(0, error.until - now) : undefined;
    const refusedLogin = error instanceof CredentialsRefusedError;
    if (refusedLogin) {
      // It answered (alive), but will not take this connection until the shop fixes it: pause the connection.
      lane.breaker.success();
      lane.credentialsRefused = true;
      lane.pausedUntil = Math.max(lane.pausedUntil, now + CREDENTIALS_PAUSE_MS);
    } else if (!paused && outcomeOf(error) === 'rate-limited') {
      lane.breaker.success(); // it answered, asking us to slow down: hold the whole service, not just this job
      if (retryAfterMs !== undefined) lane.pausedUntil = Math.max(lane.pausedUntil, now + retryAfterMs);
    } else if (!paused && lane.breaker.failure(trial)) {
      log.warn(`outbox: ${lane.key} keeps failing; its orders wait until ${new Date(lane.breaker.trialAt()!).toISOString()}, then one is tried`);
      await store.holdJobsUntil([...lane.pairs.values()], lane.breaker.trialAt()!);
    }
    const noAnswer = error instanceof ProviderUnavailableError && error.noAnswer !== undefined;
    const counts = retryAfterMs === undefined && !noAnswer && !trial && !refusedLogin;
    const failures = job.failedAttempts + (counts ? 1 : 0);
    log.child({ companyId: job.order.companyId, orderId: job.orderId, service: job.order.providerKey })
      .warn(`outbox: ${job.action} of order ${job.orderId} failed (attempt ${job.attempts}, ${failures} of ${MAX_FAILED_ATTEMPTS} counted): ${message}`);
    if (failures >= MAX_FAILED_ATTEMPTS) {
      const service = providers.get(job.order.providerKey)?.info.name ?? job.order.providerKey;
      await recordRefusal(job, new ProviderRejectedError(said('outbox.gaveUp', { service, n: failures, reason: failureReason(error) })));
      return;
    }
    // A service that said how long to wait is asked again then (instead of after the backoff set when the job was
    // claimed), and one whose breaker is open not before its trial.
    const retryAt = retryAfterMs !== undefined ? now + retryAfterMs : undefined;
    const notBefore = lane.breaker.state() === 'open' ? lane.breaker.trialAt()! : 0;
    const errorMessage = refusedLogin ? messageOf('outbox.credentialsRefused', { reason: failureReason(error) }) : (failureRef(error) ?? null);
    await store.releaseJob(holder, job.id, { error: message, errorMessage, retryAt, notBefore, counts });
    // The breaker may have opened while this job was being given back (its failure came just before the one that
    // opened it). The hold skips jobs still leased, and PostgreSQL runs the hold and this release side by side on two
    // connections, so this job may have missed it: hold the lane's jobs again now that this one is back.
    const trialAt = lane.breaker.state() === 'open' ? lane.breaker.trialAt()! : 0;
    if (trialAt > notBefore) await store.holdJobsUntil([...lane.pairs.values()], trialAt);
    wakeAt(Math.max(retryAt ?? job.nextAttemptAt, notBefore, trialAt));
  }

  let wakeTimer: NodeJS.Timeout | null = null;
  let wakeTime = Infinity;
  /**
   * A claim when a job given back comes due sooner than the next pass (a Retry-After of a second, a first
   * backoff), so the last orders of a batch do not wait for the pass. On the injected clock: a timer that
   * fires before its time (a hand-driven clock in tests) waits again for the rest.
   */
  function wakeAt(at: number) {
    if (!timer || at >= wakeTime || at - clock.now() >= passMs) return;
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTime = at;
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      wakeTime = Infinity;
      if (clock.now() < at) return wakeAt(at);
      pumpSoon();
    }, Math.max(0, at - clock.now()));
    wakeTimer.unref();
  }

  /**
   * Starts a claimed job in the place reserved for it (claimAndLaunch); it counts against its lane until its outcome
   * is recorded (its place is freed at once, see lanes.ts).
   */
  function launch(job: Job, lane: Lane) {
    const slot = lanes.slotOf(lane);
    const run: Promise<void> = runJob(job, lane, slot)
      .catch((error) => {
        if (!stopped) log.error(`outbox: ${job.action} of order ${job.orderId} could not be recorded`, error);
      })
      .finally(() => {
        out.delete(job.id);
        const ended = endedSincePublish.get(job.order.companyId) ?? new Set<string>();
        endedSincePublish.set(job.order.companyId, ended.add(String(job.order.id)));
        lanes.endJob(lane, slot.end());
      });
    out.set(job.id, run);
  }

  /**
   * Keeps the leases of the jobs out: a call (with its retries inside, a CDEK check) may outlast a lease, and a job
   * whose lease ran out while its holder lives would be called twice. A renewal that fails is tried at the next tick.
   */
  async function renewLeases() {
    if (out.size === 0) return;
    await store.renewLeases(holder, [...out.keys()], clock.now() + leaseMs);
  }

  /** Claims as many due jobs as the services have room for and starts them. Resolves with how many started. */
  async function claimAndLaunch(): Promise<number> {
    const now = clock.now();
    const candidates = await store.dueJobs(now, Math.min(CLAIM_SCAN, lanes.roomOfAll() + UNSEEN_SCAN), lanes.blockedPairs());
    const room = new Map<Lane, number>();
    const chosen = new Map<number, Lane>();
    for (const candidate of candidates) {
      // A job of ours still out is never claimed again, whatever the clock says of its lease (a hand-moved test clock).
      if (out.has(candidate.id)) continue;
      const lane = lanes.of(candidate.providerKey, candidate.providerConnectId);
      const left = room.get(lane) ?? lanes.room(lane);
      room.set(lane, left - 1);
      if (left > 0) chosen.set(candidate.id, lane);
    }
    // Their places are taken before the claim: while it is out (a round trip on PostgreSQL), a job back from its wait
    // between calls must not take one of them, or one call too many would be out. A place not claimed is given back.
    for (const lane of chosen.values()) lanes.startJob(lane);
    let jobs: Job[] = [];
    try {
      jobs = await store.claimJobs(
        holder,
        candidates.filter((c) => chosen.has(c.id)),
        now,
        (c) => now + backoff(c.attempts + 1),
        now + leaseMs,
      );
    } finally {
      const claimed = new Set(jobs.map((job) => job.id));
      for (const [id, lane] of chosen) if (!claimed.has(id)) lanes.endJob(lane, true);
    }
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

  /** Each company's orders whose jobs came back (done, or given back after a failed try) since the last state told. */
  let endedSincePublish = new Map<number, Set<string>>();
  /**
   * Tells each company's windows of its queue when it changed or some of its jobs came back, naming those orders (an
   * open order's detail reads itself again only when it is named; an idle pass would only wake every window).
   */
  async function publishStates() {
    const ended = endedSincePublish;
    endedSincePublish = new Map();
    const now = await statesByCompany();
    for (const companyId of new Set([...now.keys(), ...lastPublished.keys(), ...ended.keys()])) {
      const current = now.get(companyId) ?? { pending: 0, waitingForConnection: false };
      const seen = JSON.stringify(current);
      const orderIds = [...(ended.get(companyId) ?? [])];
      if (orderIds.length > 0 || seen !== lastPublished.get(companyId)) events.publish({ type: 'outbox.state', companyId, ...current, orderIds });
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
        if (out.size === 0) {
          if (started === 0) break;
          continue;
        }
        await new Promise<void>((resolve) => {
          wakeDrain = resolve;
          void Promise.race(out.values()).then(resolve);
        });
        wakeDrain = null;
      }
    } while (drainAgain && !stopped);
    await publishStates();
    return processed;
  }

  async function state() {
    const { pending, failing } = await store.queueCount();
    return { pending, waitingForConnection: failing };
  }

  /** Each company's part of the queue: a window hears of its own company's orders only. */
  async function statesByCompany() {
    const counts = await store.queueCountsByCompany();
    return new Map([...counts].map(([companyId, { pending, failing }]) => [companyId, { pending, waitingForConnection: failing }]));
  }


  const outbox = {
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

    /**
     * Asks for a claim soon (after a commit). While every service called is busy to its limit, a claim
     * could start nothing of theirs: the next place freed claims (and the pass finds any other service's
     * jobs), so a shop creating orders fast is not slowed by a scan of the queue after each one.
     */
    kick(): void {
      if (!timer) return; // not started: tests and tools drain by hand
      if (lanes.allBusy()) return;
      pumpSoon();
    },

    state,

    /**
     * A connection was saved (its login, password or key perhaps fixed): the connections paused for refused
     * credentials try again at once, one order first.
     */
    credentialsChanged(): void {
      for (const lane of lanes.all()) if (lane.credentialsRefused) lane.pausedUntil = 0;
      if (timer) pumpSoon();
    },

    /** This instance's name on the jobs it leases (made at start). */
    holder,

    /** Gives back the jobs a previous run held when it stopped mid-call or crashed, so they go at once. */
    recover: () => store.releaseAbandonedJobs(holder),

    start(intervalMs = 1_000): void {
      if (timer) return;
      stopped = false;
      passMs = intervalMs;
      timer = setInterval(() => {
        pumpSoon();
        publishStates().catch((error) => log.error('outbox state failed', error));
      }, intervalMs);
      timer.unref();
      renewTimer = setInterval(() => void renewLeases().catch((error) => log.error('outbox: renewing the leases failed', error)), Math.max(1, Math.floor(leaseMs / 3)));
      renewTimer.unref();
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
      if (renewTimer) clearInterval(renewTimer);
      renewTimer = null;
      if (wakeTimer) clearTimeout(wakeTimer);
      wakeTimer = null;
      wakeTime = Infinity;
      await pumping?.catch(() => {});
      if (out.size === 0) return;
      let grace: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        Promise.allSettled([...out.values()]).then(() => true),
        new Promise<boolean>((resolve) => {
          grace = setTimeout(() => resolve(false), deps.stopGraceMs ?? 5_000);
        }),
      ]);
      clearTimeout(grace);
      if (!waited) log.warn(`outbox: stopped with ${out.size} calls still out; their orders are asked about at the next start`);
    },
  };
  return outbox;
}

export type Outbox = ReturnType<typeof createOutbox>;
