import type { StatusRefreshResult } from '../../../shared/contract/status-refresh';
import type { OrdersNoticeEvent } from '../../../shared/contract/bulk';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CourierRefresh } from '../courier/courier-refresh';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import type { SettingsService } from '../settings/settings-service';
import { untrackedStatusKeys, type RefreshScope, type StatusRefresher } from '../statuses/refresh';
import type { InstancesStore } from '../store/instances/instances-store';
import type { OrdersStore, RefreshRun } from '../store/orders/orders-store';
import type { Timers } from './timers';

export interface RefreshSchedulerDeps {
  /** Its tracked orders, the statuses a run brought, the runs (refresh_runs). */
  store: Pick<OrdersStore, 'trackedCounts' | 'trackedIds' | 'lastStatusId' | 'reachedStatuses' | 'recordRefreshRun' | 'lastRefreshRun'>;
  /** A scheduled run goes only when no other instance on the database runs one now. */
  instances: Pick<InstancesStore, 'tryRunExclusive'>;
  clock: Clock;
  timers: Timers;
  refresher: StatusRefresher;
  /** Asks where open courier calls stand; every run does it after the orders' statuses. */
  courier?: Pick<CourierRefresh, 'refresh'>;
  settings: Pick<SettingsService, 'preferences'>;
  events: EventBus;
  log: Logger;
  /** Orders per step of a run (one progress event each). */
  chunkSize?: number;
  /** Wait after start when no refresh ran for a whole interval (the window opens first). */
  startDelayMs?: number;
}

type Trigger = 'schedule' | 'manual';

/** Which new statuses the user hears about. */
const noticeKinds: Record<string, OrdersNoticeEvent['kind']> = {
  delivered: 'delivered',
  returned: 'returned',
  partialReturn: 'returned',
  problem: 'problem',
  lost: 'problem',
};

const keepRuns = 500;

/**
 * Refreshes statuses every N minutes (the preference), one run at a time. A run goes through the
 * tracked orders in chunks (the refresher batches inside), publishing `refresh.progress`; afterwards it
 * publishes `orders.notice` for orders that became delivered, returned or ran into a problem, and
 * records itself in refresh_runs (statuses.lastRefresh).
 */
export function createRefreshScheduler(deps: RefreshSchedulerDeps) {
  const { store, instances, clock, timers, refresher, settings, events, log } = deps;
  const chunkSize = deps.chunkSize ?? 250;
  const startDelayMs = deps.startDelayMs ?? 60_000;

  let cancelTimer: (() => void) | null = null;
  let nextAt: number | null = null;
  let started = false;
  let unsubscribe: (() => void) | null = null;
  let current: { scope: RefreshScope; done: Promise<StatusRefreshResult> } | null = null;
  let scheduling: Promise<void> = Promise.resolve();
  let ticking: Promise<void> | null = null;
  /** The refresh interval (ms): read at start and again when the preferences change, not on every run. */
  let interval = 0;

  /** When the last run of every company finished, as stored now (another instance on the database may have run one). */
  async function lastFinishedAt() {
    return (await store.lastRefreshRun(null))?.finishedAt ?? null;
  }

  async function publishNotices(scope: RefreshScope, afterStatusId: number) {
    const reached = await store.reachedStatuses(afterStatusId, Object.keys(noticeKinds), scope.companyId);
    const groups = new Map<string, OrdersNoticeEvent>();
    for (const r of reached) {
      const kind = noticeKinds[r.key];
      const key = `${r.companyId}:${kind}`;
      const notice = groups.get(key) ?? { type: 'orders.notice', companyId: r.companyId, kind, orderIds: [], clientNumbers: [] };
      notice.orderIds.push(String(r.orderId));
      notice.clientNumbers.push(r.clientNumber);
      groups.set(key, notice);
    }
    for (const notice of groups.values()) events.publish(notice);
  }

  /** A run's courier-call part: its failure is logged and leaves the statuses' result as it is. */
  async function refreshCourierCalls(scope: RefreshScope) {
    try {
      await deps.courier?.refresh({ companyId: scope.companyId });
    } catch (error) {
      log.error('refreshing courier calls failed', error);
    }
  }

  async function run(scope: RefreshScope, trigger: Trigger): Promise<StatusRefreshResult> {
    try {
      return await runStatuses(scope, trigger);
    } finally {
      await refreshCourierCalls(scope);
    }
  }

  async function runStatuses(scope: RefreshScope, trigger: Trigger): Promise<StatusRefreshResult> {
    const startedAt = clock.now();
    const result: StatusRefreshResult = { checked: 0, changed: 0, statuses: 0, failed: 0 };
    let error: string | null = null;
    try {
      const mark = await store.lastStatusId();
      // Progress is told to each company about its own orders only (a scheduled run covers every company).
      const totals = await store.trackedCounts({ companyId: scope.companyId, leaveOut: untrackedStatusKeys });
      if (scope.companyId !== undefined && !totals.has(scope.companyId)) totals.set(scope.companyId, 0); // nothing to do: say so at once
      const done = new Map([...totals.keys()].map((companyId) => [companyId, 0]));
      const progress = (companyId: number) => {
        const total = totals.get(companyId) ?? 0;
        events.publish({ type: 'refresh.progress', companyId, done: Math.min(done.get(companyId) ?? 0, total), total });
      };
      for (const companyId of totals.keys()) progress(companyId);
      for (let afterId = 0; ; ) {
        const rows = await store.trackedIds({ companyId: scope.companyId, leaveOut: untrackedStatusKeys, afterId, limit: chunkSize });
        if (rows.length === 0) break;
        afterId = rows[rows.length - 1].id;
        const part = await refresher.refresh({ ...scope, orderIds: rows.map((r) => r.id) });
        result.checked += part.checked;
        result.changed += part.changed;
        result.statuses += part.statuses;
        result.failed += part.failed;
        const touched = new Set<number>();
        for (const r of rows) {
          done.set(r.companyId, (done.get(r.companyId) ?? 0) + 1);
          totals.set(r.companyId, Math.max(totals.get(r.companyId) ?? 0, done.get(r.companyId)!));
          touched.add(r.companyId);
        }
        for (const companyId of touched) progress(companyId);
      }
      // Orders that finished meanwhile: the run is over all the same.
      for (const [companyId, total] of totals) {
        if ((done.get(companyId) ?? 0) < total) {
          done.set(companyId, total);
          progress(companyId);
        }
      }
      await publishNotices(scope, mark);
      return result;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      throw failure;
    } finally {
      try {
        await store.recordRefreshRun({ companyId: scope.companyId ?? null, trigger, startedAt, finishedAt: clock.now(), ...result, error }, keepRuns);
      } catch (recordError) {
        log.error('recording a status refresh failed', recordError);
      }
    }
  }

  /** Starts a run unless one covering the scope is under way (then joins it); never two at once. */
  async function begin(scope: RefreshScope, trigger: Trigger): Promise<StatusRefreshResult> {
    while (current) {
      const running = current;
      if (running.scope.companyId === undefined || running.scope.companyId === scope.companyId) return running.done;
      await running.done.catch(() => {});
    }
    const done = run(scope, trigger);
    const entry = { scope, done };
    current = entry;
    try {
      return await done;
    } finally {
      if (current === entry) current = null;
    }
  }

  /**
   * Sets the timer for the next scheduled run: an interval after the last one (soon after start when overdue).
   * `readInterval`: at start and after the preferences changed.
   */
  function schedule(readInterval = false): Promise<void> {
    scheduling = scheduling.then(async () => {
      cancelTimer?.();
      cancelTimer = null;
      nextAt = null;
      if (!started) return;
      if (readInterval) interval = (await settings.preferences()).refreshIntervalMinutes * 60_000;
      const last = await lastFinishedAt();
      const now = clock.now();
      const due = last !== null ? last + interval : now + startDelayMs;
      const delay = Math.max(Math.min(startDelayMs, interval), due - now);
      if (!started) return;
      nextAt = now + delay;
      cancelTimer = timers.set(() => {
        ticking = tick().finally(() => {
          ticking = null;
        });
      }, delay);
    }).catch((error) => log.error('scheduling the status refresh failed', error));
    return scheduling;
  }

  /**
   * A scheduled run, once per interval across the instances on the database: under the lock, and only when no
   * instance ran one since this timer was set (the last run is read again under the lock).
   */
  async function scheduledRun() {
    const last = await lastFinishedAt();
    if (last !== null && last + interval > clock.now()) return;
    await begin({}, 'schedule');
  }

  async function tick() {
    cancelTimer = null;
    nextAt = null;
    try {
      await instances.tryRunExclusive('status-refresh', scheduledRun);
    } catch (error) {
      log.error('scheduled status refresh failed', error);
    }
    await schedule();
  }

  return {
    /** Starts the schedule and follows changes of the refresh interval. */
    start(): Promise<void> {
      if (started) return scheduling;
      started = true;
      unsubscribe = events.subscribe((event) => {
        if (event.type === 'settings.changed' && event.what === 'preferences') void schedule(true);
      });
      return schedule(true);
    },

    /** Stops the timer and waits for the run under way. */
    async stop(): Promise<void> {
      started = false;
      unsubscribe?.();
      unsubscribe = null;
      await schedule();
      await current?.done.catch(() => {});
      await ticking;
    },

    /** The UI's "refresh now" for one company (joins a run under way that covers it). */
    refreshNow(companyId?: number): Promise<StatusRefreshResult> {
      return begin(companyId === undefined ? {} : { companyId }, 'manual');
    },

    /** The last run that covered the company, and when the next scheduled one is due. */
    async lastRefresh(companyId: number) {
      const row: RefreshRun | null = await store.lastRefreshRun(companyId);
      return {
        at: row ? formatTimestamp(row.finishedAt) : null,
        trigger: row?.trigger ?? null,
        result: row ? { checked: row.checked, changed: row.changed, statuses: row.statuses, failed: row.failed } : null,
        error: row?.error ?? null,
        nextAt: nextAt === null ? null : formatTimestamp(nextAt),
        running: current !== null,
      };
    },

    /** Resolves when scheduling and the run under way are done (tests). */
    async idle(): Promise<void> {
      await ticking;
      await scheduling;
      await current?.done.catch(() => {});
      await scheduling;
    },

    get nextAt() {
      return nextAt;
    },
  };
}

export type RefreshScheduler = ReturnType<typeof createRefreshScheduler>;
