import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import type { OrdersStore } from '../store/orders/orders-store';
import type { DueWebhookCall, WebhooksStore } from '../store/webhooks/webhooks-store';
import { orderInfoOf, statusOf } from '../statuses/status-service';
import { said, type MessageRef } from '../../../shared/messages';
import { logServiceCall } from '../logging/service-call';
import { callFailedOf, guardedPost } from './guarded-post';
import { signatureHeader, signBody } from './signature';

/** Wait after the nth failed attempt; after the last one the call is given up (about 30 hours after the first). */
export const webhookRetryDelays = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000];
export const maxWebhookAttempts = webhookRetryDelays.length + 1;
/** A call's whole time, connection to the answer's status line. */
export const webhookTimeoutMs = 10_000;
/**
 * A last attempt's claim: no other pass (of this instance or another on the database) takes the call meanwhile; once
 * it is recorded the call is finished. Longer than a call takes; an instance that died mid-call leaves it for this long.
 */
export const lastAttemptLeaseMs = 6 * webhookTimeoutMs;
/** Finished calls (and their attempts) are kept this long, then forgotten. */
const keepFinishedMs = 30 * 86_400_000;

export interface WebhookDeliveryDeps {
  webhooks: WebhooksStore;
  /** Where the status a call is about is read. */
  orders: Pick<OrdersStore, 'statusWithOrder'>;
  clock: Clock;
  log: Logger;
  events: EventBus;
  /** The owner allowed calls to this computer and the local network (asked at every pass). */
  allowLocal: () => Promise<boolean>;
  timeoutMs?: number;
  /** Calls one pass makes at most (in parallel). */
  batchSize?: number;
  /** How often the worker looks for due calls besides being woken by status changes. */
  pollMs?: number;
}

/**
 * Makes the calls the database queued (a trigger queues one per webhook with each recorded status), once across the
 * instances on the database (each call is claimed by one of them, see claimDueCalls): POSTs
 * `{ type, webhookUuid, deliveryId, orderInfo, status }` signed with the webhook's secret, records every
 * attempt, retries with backoff until the site answers 2xx or the attempts run out. At least once: an
 * attempt is counted before the call, so a crash mid-call means one more call later, never none; sites
 * tell repeats apart by `deliveryId`.
 */
export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { webhooks, clock, log } = deps;
  const timeoutMs = deps.timeoutMs ?? webhookTimeoutMs;
  const batchSize = deps.batchSize ?? 20;
  const pollMs = deps.pollMs ?? 2_000;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let unsubscribe: (() => void) | null = null;
  let lastPrune = 0;

  /** Makes the call; false when it was not delivered, or was given back for the next claim. */
  async function deliver(d: DueWebhookCall, allowLocal: boolean): Promise<boolean> {
    // One site's calls go one after another: a call whose claim would end before it does may already be due to
    // another instance then. It is given back for the next claim (due at once, this attempt not counted) rather
    // than sent twice.
    if (clock.now() + timeoutMs > d.until) {
      await webhooks.giveBack(d);
      return false;
    }
    const pair = await deps.orders.statusWithOrder(d.webhook.companyId, d.statusId);
    const news = pair && { orderId: pair.order.id, orderInfo: orderInfoOf(pair.order), status: statusOf(pair.status) };
    let httpStatus: number | null = null;
    let error: ({ message: string } & MessageRef) | null = null;
    let tookMs: number | null = null; // how long the POST took; null when none went out (the order is gone)
    if (!news) error = said('webhook.orderGone');
    else {
      const body = JSON.stringify({ type: 'ORDER_STATUS', webhookUuid: d.webhook.uuid, deliveryId: d.deliveryId, orderInfo: news.orderInfo, status: news.status });
      const headers = {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': 'ShipDesk-Webhooks/1',
        [signatureHeader]: signBody(d.webhook.secret, body),
        'X-ShipDesk-Delivery': String(d.deliveryId),
        'X-ShipDesk-Webhook': d.webhook.uuid,
      };
      const started = performance.now();
      try {
        httpStatus = await guardedPost(d.webhook.url, body, headers, { allowLocal, timeoutMs });
      } catch (e) {
        const failure = callFailedOf(e);
        error = { message: failure.message, ...failure.ref };
      }
      tookMs = performance.now() - started;
    }
    const delivered = httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
    if (httpStatus !== null && httpStatus >= 300 && httpStatus < 400) error = said('webhook.redirect');
    const finished = delivered || !news || d.attempt >= maxWebhookAttempts;
    await webhooks.recordAttempt(
      { deliveryId: d.deliveryId, webhookId: d.webhook.id },
      { at: clock.now(), httpStatus, error, ...(finished ? { finished: delivered ? ('delivered' as const) : ('failed' as const) } : {}) },
    );
    // A failed attempt that will be tried again is support's to read in the file, not the terminal's (a dead site retries for hours).
    const about = { webhook: d.webhook.uuid, deliveryId: d.deliveryId, ...(finished && !delivered ? { givenUp: true } : {}), ...(!finished ? { fileOnly: true } : {}) };
    const callLog = log.child({ companyId: d.webhook.companyId, orderId: news?.orderId, service: 'webhook' });
    if (tookMs === null) callLog.info('webhook call not sent', { ...about, error: error?.message });
    else {
      // The site's address as a service call's: its credentials and secret-named query values are not written.
      logServiceCall(callLog, {
        method: 'POST', url: d.webhook.url, status: httpStatus ?? undefined, durationMs: tookMs, attempt: d.attempt, about,
        ...(error ? { error: error.message } : {}),
      });
    }
    return delivered;
  }

  async function prune() {
    const now = clock.now();
    if (now - lastPrune < 3_600_000) return;
    lastPrune = now;
    await webhooks.forgetFinished(now - keepFinishedMs);
  }

  /** One pass: the calls due at this moment (up to batchSize), in parallel. Resolves with how many were made and delivered. */
  async function pass(): Promise<{ made: number; delivered: number }> {
    const due = await webhooks.claimDueCalls(clock.now(), batchSize, webhookRetryDelays, lastAttemptLeaseMs);
    if (due.length === 0) {
      await prune();
      return { made: 0, delivered: 0 };
    }
    const allowLocal = await deps.allowLocal();
    // Sites in parallel; one site's calls one after another, oldest first, so statuses arrive in order (retries aside).
    const bySite = new Map<number, typeof due>();
    for (const d of due) bySite.set(d.webhook.id, [...(bySite.get(d.webhook.id) ?? []), d]);
    let delivered = 0;
    await Promise.all(
      [...bySite.values()].map(async (calls) => {
        for (const d of calls) {
          if (await deliver(d, allowLocal).catch((e) => (log.error('webhook call could not be recorded', e), false))) delivered++;
        }
      }),
    );
    return { made: due.length, delivered };
  }

  /** Runs a pass after the one under way (passes never overlap, and a wake-up during a pass is never lost). */
  function runOnce(): Promise<{ made: number; delivered: number }> {
    const next = chain.catch(() => undefined).then(() => pass());
    chain = next;
    return next;
  }

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      // A full batch means more may be due (a whole import's statuses): the next pass follows at once.
      void runOnce()
        .then(({ made }) => schedule(made >= batchSize ? 0 : pollMs))
        .catch((e) => {
          log.error('webhook pass failed', e);
          schedule(pollMs);
        });
    }, ms);
    timer.unref?.();
  }

  return {
    /** Every call due now, repeated until none is left due (tests drive the worker by hand). Resolves with the calls delivered. */
    async drain(): Promise<number> {
      let delivered = 0;
      for (;;) {
        if (!(await webhooks.hasDueCalls(clock.now()))) return delivered;
        delivered += (await runOnce()).delivered;
      }
    },
    start() {
      if (!stopped) return;
      stopped = false;
      // A status change is usually followed by its orders.changed event: the call goes out at once.
      unsubscribe = deps.events.subscribe((event) => {
        if (event.type === 'orders.changed') schedule(0);
      });
      schedule(0);
    },
    /** Stops the worker and lets the pass under way finish. */
    async stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain.catch(() => {});
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
