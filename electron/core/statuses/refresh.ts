import type { StatusRefreshResult } from '../../../shared/contract/status-refresh';
import { finalStatusKeys, type StatusKey } from '../../../shared/status-keys';
import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import type BetterSqlite3 from 'better-sqlite3';
import type { ProviderStatus, TrackedShipment } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';

/** Orders in these statuses are not asked about: not registered yet (or changes on their way), or finished. */
export const untrackedStatusKeys: StatusKey[] = ['uploading', ...finalStatusKeys];

export interface StatusRefreshDeps {
  db: Db;
  /** The same connection, raw: the batch writes use prepared statements (Kysely re-prepares every statement). */
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  providers: ProviderRegistry;
  events: EventBus;
  log: Logger;
  /** Orders per batch: one provider.track call per service and one transaction per batch. */
  batchSize?: number;
  /** Orders per write transaction; the event loop gets a turn between them. */
  writeChunk?: number;
}

export interface RefreshScope {
  /** Only this company's orders (the UI's "refresh now"); all companies when absent (the scheduler). */
  companyId?: number;
  /** Only these orders. */
  orderIds?: number[];
}

interface Tracked {
  id: number;
  company_id: number;
  provider_key: string;
  provider_number: string;
  additional_provider_number: string | null;
  client_number: string;
  payload: string;
  status_key: string;
}

interface KnownStatus {
  id: number;
  order_id: number;
  key: string;
  created_provider: number | null;
  provider_code?: string | null;
}

/** What a refresh writes for one order. */
export interface OrderStatusChange {
  orderId: number;
  companyId: number;
  /** The status the order had when it was read; the write is skipped if it moved meanwhile. */
  fromKey: string;
  /** Statuses to append, oldest first. */
  append: ProviderStatus[];
  /** Our own rows that the service's report of the same status completes (createdProvider, codes). */
  complete: { rowId: number; status: ProviderStatus }[];
  quantityDelivered?: Record<string, number>;
}

/**
 * Which of the service's statuses are new for an order. The service reports the whole history, oldest
 * first; a status is known when the order has the same key at the same service time. A report older
 * than the newest service time we hold is history we already passed. A report of the status the order
 * is in, which we recorded ourselves (uploaded after registration), completes that row instead of
 * repeating it.
 */
export function newStatuses(orderId: number, companyId: number, known: KnownStatus[], reported: ProviderStatus[]): OrderStatusChange | null {
  const seen = new Map(known.filter((k) => k.created_provider !== null).map((k) => [`${k.key}@${k.created_provider}`, k]));
  let watermark = Math.max(-Infinity, ...known.map((k) => k.created_provider ?? -Infinity));
  const current = known.at(-1);
  let currentKey = current?.key;
  let currentOpen = current !== undefined && current.created_provider === null;
  const change: OrderStatusChange = { orderId, companyId, fromKey: current?.key ?? '', append: [], complete: [] };
  for (const status of reported) {
    const id = `${status.key}@${status.at}`;
    const ours = seen.get(id);
    if (ours) {
      // We recorded it with the service's time (uploaded after registration): add the service's codes once.
      if (!ours.provider_code && status.providerCode) change.complete.push({ rowId: ours.id, status });
      ours.provider_code = status.providerCode ?? ours.provider_code;
      continue;
    }
    if (status.at < watermark) continue;
    seen.set(id, { id: 0, order_id: orderId, key: status.key, created_provider: status.at, provider_code: status.providerCode });
    watermark = status.at;
    if (status.key === currentKey && currentOpen && current && change.append.length === 0) {
      change.complete.push({ rowId: current.id, status });
    } else {
      change.append.push(status);
      currentKey = status.key;
    }
    currentOpen = false;
    if (status.quantityDelivered) change.quantityDelivered = status.quantityDelivered;
  }
  return change.append.length || change.complete.length ? change : null;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Status tracking: asks each delivery service, in batches, for the statuses of the live registered
 * orders that are not finished, and records what is new (order_statuses; the order's current status;
 * quantityDelivered of a partial return). createdProvider is the service's time, created ours. A batch's
 * writes go in transactions of `writeChunk` orders, and the event loop gets a turn between them. Publishes `orders.changed`.
 */
export function createStatusRefresher(deps: StatusRefreshDeps) {
  const { db, sqlite, clock, providers, events, log } = deps;
  const batchSize = deps.batchSize ?? 250;
  const writeChunk = Math.max(1, Math.min(batchSize, deps.writeChunk ?? 50));
  let statements: ReturnType<typeof prepare> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  function page(scope: RefreshScope, afterId: number) {
    let query = db
      .selectFrom('orders')
      .select(['id', 'company_id', 'provider_key', 'provider_number', 'additional_provider_number', 'client_number', 'payload', 'status_key'])
      .where('state', '=', 'active')
      .where('provider_number', 'is not', null)
      .where('status_key', 'not in', untrackedStatusKeys)
      .where('id', '>', afterId);
    if (scope.companyId !== undefined) query = query.where('company_id', '=', scope.companyId);
    if (scope.orderIds) query = query.where('id', 'in', scope.orderIds.length ? scope.orderIds : [0]);
    return query.orderBy('id').limit(batchSize).execute() as Promise<Tracked[]>;
  }

  /** Asks every service of the batch; a service that fails leaves its orders for next time. */
  async function track(batch: Tracked[]): Promise<{ reports: Map<number, ProviderStatus[]>; failed: number }> {
    const byService = new Map<string, Tracked[]>();
    for (const order of batch) byService.set(order.provider_key, [...(byService.get(order.provider_key) ?? []), order]);
    const reports = new Map<number, ProviderStatus[]>();
    let failed = 0;
    for (const [key, orders] of byService) {
      const provider = providers.get(key);
      if (!provider) {
        failed += orders.length;
        continue;
      }
      const shipments: TrackedShipment[] = orders.map((o) => ({
        providerNumber: o.provider_number,
        additionalProviderNumber: o.additional_provider_number,
        request: { companyId: o.company_id, orderId: o.id, clientNumber: o.client_number, order: JSON.parse(o.payload) },
      }));
      try {
        const answer = await provider.track(shipments);
        for (const o of orders) {
          const statuses = answer.get(o.provider_number);
          if (statuses) reports.set(o.id, [...statuses].sort((a, b) => a.at - b.at));
        }
      } catch (error) {
        failed += orders.length;
        log.warn(`status refresh: ${key} could not be asked: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { reports, failed };
  }

  function prepare() {
    return {
      current: sqlite.prepare<[number], { status_key: string; state: string }>('SELECT status_key, state FROM orders WHERE id = ?'),
      insert: sqlite.prepare(
        `INSERT INTO order_statuses (order_id, company_id, key, description, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      ),
      complete: sqlite.prepare('UPDATE order_statuses SET created_provider = ?, provider_code = ?, provider_name = ?, provider_description = ? WHERE id = ?'),
      // A service's status has its own words: no message of ours stays beside them.
      status: sqlite.prepare('UPDATE orders SET status_key = ?, status_description = ?, status_description_message = NULL, status_changed_at = ?, updated_at = ? WHERE id = ?'),
      delivered: sqlite.prepare('UPDATE orders SET quantity_delivered = ?, updated_at = ? WHERE id = ?'),
    };
  }

  /**
   * One batch in one transaction, with statements prepared once. It runs on the connection Kysely
   * lends (db.connection), so no other transaction is open on it meanwhile.
   */
  function write(changes: OrderStatusChange[], now: number): OrderStatusChange[] {
    statements ??= prepare();
    const st = statements;
    return sqlite.transaction(() => {
      // An order the outbox or a client changed since it was read keeps its own story; it is asked again next time.
      const applied = changes.filter((c) => {
        const row = st.current.get(c.orderId);
        return row !== undefined && row.state === 'active' && row.status_key === c.fromKey;
      });
      for (const c of applied) {
        for (const s of c.append) {
          st.insert.run(c.orderId, c.companyId, s.key, s.description ?? null, now, s.providerCode ?? null, s.providerName ?? null, s.providerDescription ?? null, s.at);
        }
        for (const { rowId, status: s } of c.complete) {
          st.complete.run(s.at, s.providerCode ?? null, s.providerName ?? null, s.providerDescription ?? null, rowId);
        }
        const last = c.append.at(-1);
        if (last) st.status.run(last.key, last.description ?? null, now, now, c.orderId);
        if (c.quantityDelivered) st.delivered.run(JSON.stringify(c.quantityDelivered), now, c.orderId);
      }
      return applied;
    })();
  }

  async function run(scope: RefreshScope): Promise<StatusRefreshResult> {
    const result: StatusRefreshResult = { checked: 0, changed: 0, statuses: 0, failed: 0 };
    for (let afterId = 0; ; ) {
      const batch = await page(scope, afterId);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1].id;
      result.checked += batch.length;

      const { reports, failed } = await track(batch);
      result.failed += failed;
      await yieldToEventLoop(); // the services' answers may have taken a while to read
      const ids = [...reports.keys()];
      const known = ids.length
        ? ((await db
            .selectFrom('order_statuses')
            .select(['id', 'order_id', 'key', 'created_provider', 'provider_code'])
            .where('order_id', 'in', ids)
            .orderBy('order_id')
            .orderBy('id')
            .execute()) as KnownStatus[])
        : [];
      const knownBy = new Map<number, KnownStatus[]>();
      for (const k of known) {
        const list = knownBy.get(k.order_id);
        if (list) list.push(k);
        else knownBy.set(k.order_id, [k]);
      }
      const changes: OrderStatusChange[] = [];
      for (const order of batch) {
        const reported = reports.get(order.id);
        if (!reported) continue;
        const change = newStatuses(order.id, order.company_id, knownBy.get(order.id) ?? [], reported);
        if (change) changes.push(change);
      }
      if (changes.length) {
        const now = clock.now();
        // Written in small transactions with a turn for the event loop between them: one transaction for
        // the whole batch held the loop for 170 ms on 250 orders (bench refresh).
        const applied: OrderStatusChange[] = [];
        for (let i = 0; i < changes.length; i += writeChunk) {
          if (i > 0) await yieldToEventLoop();
          const chunk = changes.slice(i, i + writeChunk);
          applied.push(...(await db.connection().execute(async () => write(chunk, now))));
        }
        const touched = new Map<number, string[]>();
        for (const c of applied) {
          result.statuses += c.append.length;
          if (c.append.length) result.changed++;
          touched.set(c.companyId, [...(touched.get(c.companyId) ?? []), String(c.orderId)]);
        }
        for (const [companyId, orderIds] of touched) events.publish({ type: 'orders.changed', companyId, orderIds });
      }
      await yieldToEventLoop(); // a window stays responsive while thousands of orders are asked about
    }
    return result;
  }

  return {
    /**
     * Asks the services about every tracked order in scope and records new statuses. Refreshes run one
     * after another (never two writers at once); each resolves with its own counts.
     */
    refresh(scope: RefreshScope = {}): Promise<StatusRefreshResult> {
      const next = queue.then(() => run(scope));
      queue = next.catch(() => {});
      return next;
    },
  };
}

export type StatusRefresher = ReturnType<typeof createStatusRefresher>;
