import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { appendStatus, type DbOrTrx } from '../orders/order-repository';
import { ProviderRejectedError, type ShipmentRequest } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import type { OrdersTable, OutboxTable } from '../store/schema';
import { backoffDelay } from './backoff';
import type { Selectable } from 'kysely';

export type OutboxAction = OutboxTable['action'];

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  providers: ProviderRegistry;
  events: EventBus;
  log: Logger;
  backoff?: (attempts: number) => number;
  /** How many due jobs one pass takes. */
  batchSize?: number;
}

type Job = Selectable<OutboxTable> & { order: Selectable<OrdersTable> };

const requestFor = (order: Selectable<OrdersTable>): ShipmentRequest => ({
  companyId: order.company_id,
  orderId: order.id,
  clientNumber: order.client_number,
  order: JSON.parse(order.payload),
});

/**
 * Work for the delivery services. Jobs are written in the same transaction as the order; the network
 * call happens after commit. An attempt is recorded before the call, so after a crash or a lost reply
 * the next attempt first asks the service whether it already has the order.
 */
export function createOutbox(deps: OutboxDeps) {
  const { db, clock, providers, events, log } = deps;
  const backoff = deps.backoff ?? backoffDelay;
  const batchSize = deps.batchSize ?? 50;
  let running: Promise<number> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  async function claimDue(): Promise<Job[]> {
    const now = clock.now();
    const rows = await db
      .selectFrom('outbox')
      .selectAll()
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(batchSize)
      .execute();
    const jobs: Job[] = [];
    for (const row of rows) {
      // Record the attempt before calling out: this is what makes a re-send ask first.
      await db
        .updateTable('outbox')
        .set({ attempts: row.attempts + 1, next_attempt_at: now + backoff(row.attempts + 1) })
        .where('id', '=', row.id)
        .execute();
      const order = await db.selectFrom('orders').selectAll().where('id', '=', row.order_id).executeTakeFirstOrThrow();
      jobs.push({ ...row, attempts: row.attempts + 1, order });
    }
    return jobs;
  }

  async function finish(job: Job, work: (trx: DbOrTrx) => Promise<void>) {
    await db.transaction().execute(async (trx) => {
      await work(trx);
      await trx.deleteFrom('outbox').where('id', '=', job.id).execute();
    });
    events.publish({ type: 'orders.changed', companyId: job.order.company_id, orderIds: [String(job.order.id)] });
  }

  async function runCreate(job: Job) {
    const provider = providers.get(job.order.provider_key);
    if (!provider) throw new ProviderRejectedError(`delivery service ${job.order.provider_key} is not available`);
    const request = requestFor(job.order);
    const registration = (job.attempts > 1 ? await provider.find(request) : null) ?? (await provider.register(request));
    await finish(job, async (trx) => {
      await trx
        .updateTable('orders')
        .set({
          provider_number: registration.providerNumber,
          additional_provider_number: registration.additionalProviderNumber ?? null,
          barcode: registration.barcode ?? null,
          tracking_url: registration.trackingUrl ?? null,
        })
        .where('id', '=', job.order.id)
        .execute();
      await appendStatus(trx, job.order.id, job.order.company_id, { key: 'uploaded', at: clock.now() });
    });
  }

  async function runJob(job: Job) {
    try {
      if (job.action !== 'create') throw new Error(`outbox action ${job.action} is not handled yet`);
      await runCreate(job);
    } catch (error) {
      if (error instanceof ProviderRejectedError) {
        await finish(job, (trx) =>
          appendStatus(trx, job.order.id, job.order.company_id, {
            key: 'uploadingError',
            at: clock.now(),
            errorCode: '200',
            description: error.description,
            providerCode: error.providerCode ?? null,
          }),
        );
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      log.warn(`outbox: ${job.action} of order ${job.order_id} failed (attempt ${job.attempts}): ${message}`);
      await db.updateTable('outbox').set({ last_error: message }).where('id', '=', job.id).execute();
    }
  }

  async function drainLoop(): Promise<number> {
    let processed = 0;
    do {
      again = false;
      for (;;) {
        const jobs = await claimDue();
        if (jobs.length === 0) break;
        for (const job of jobs) await runJob(job);
        processed += jobs.length;
      }
    } while (again);
    events.publish({ type: 'outbox.state', ...(await state()) });
    return processed;
  }

  async function state() {
    const rows = await db.selectFrom('outbox').select(['attempts', 'last_error']).execute();
    return { pending: rows.length, waitingForConnection: rows.some((r) => r.last_error !== null) };
  }

  const outbox = {
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
