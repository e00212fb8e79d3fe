import type BetterSqlite3 from 'better-sqlite3';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { CallContext } from '../companies/company-service';
import type { EventBus } from '../events';
import { columnsOf } from '../store/orders/sqlite';
import type { Outbox } from '../outbox/outbox';
import type { Db } from '../store/database';

/**
 * Creates imported orders in batches: one transaction per batch instead of one per order, multi-row
 * prepared statements instead of query building — what makes 10,000 orders take a fraction of a second.
 *
 * The rows written are exactly those of the orders service's create (orders/order-repository.ts
 * `prepareOrderInserts().insert`, and `outbox.enqueue(…, 'create')`): the order in status `uploading`,
 * its first status record, its create job, all in the batch's transaction. order-writer.test.ts
 * compares the two paths column by column, so a change on one side that the other misses fails there.
 * The rules an order must pass (schema, checkOrder) are the orders service's own and run before this.
 */

/** The columns of an order row, worked out while the file is still being read (the payload object can go). */
export interface PreparedOrder {
  clientNumber: string;
  providerKey: string;
  providerConnectId: number | null;
  recipientName: string;
  recipientPhone: string;
  recipientCity: string | null;
  codKopecks: number;
  assessedKopecks: number;
  /** The normalized payload, as orders.payload keeps it. */
  json: string;
}

/** What the orders service stores beside the payload (order-repository.ts columnsOf), ready for the batch statements. */
export function prepareOrder(payload: OrderCreate): PreparedOrder {
  const c = columnsOf(payload);
  return {
    clientNumber: c.client_number,
    providerKey: c.provider_key,
    providerConnectId: c.provider_connect_id,
    recipientName: c.recipient_name,
    recipientPhone: c.recipient_phone,
    recipientCity: c.recipient_city,
    codKopecks: c.cod_kopecks,
    assessedKopecks: c.assessed_kopecks,
    json: c.payload,
  };
}

export interface NewOrder {
  seq: number;
  row: number;
  lastRow: number;
  order: PreparedOrder;
}

export type WriteOutcome = { seq: number; orderId: number; created: number } | { seq: number; duplicateOf: number };

/** An order to create, or a row already known to have failed (recorded as it is). */
export type WriteItem = NewOrder | FailedRowRecord;

export interface FailedRowRecord {
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  /** JSON of the failure (result item and each error's sheet row). */
  error: string;
}

/** Rows per multi-row statement. */
// (the jobs of an import's orders are held this long at most: see releaseJobs)
const chunk = 50;

const orderColumns =
  'company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city, cod_kopecks, assessed_kopecks, payload, ' +
  'state, status_key, status_description, status_changed_at, provider_number, additional_provider_number, return_provider_number, barcode, ' +
  'tracking_url, created_at, updated_at, canceled_at, deleted_at';
const orderValues = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', 'uploading', NULL, ?, NULL, NULL, NULL, NULL, NULL, ?, ?, NULL, NULL)";

export function createOrderWriter(deps: { db: Db; sqlite: BetterSqlite3.Database; events: EventBus; outbox: Outbox }) {
  const { db, sqlite, events, outbox } = deps;
  const cache = new Map<string, BetterSqlite3.Statement>();
  const statement = (key: string, sql: () => string) => {
    let s = cache.get(key);
    if (!s) cache.set(key, (s = sqlite.prepare(sql())));
    return s;
  };
  const repeat = (values: string, n: number) => Array.from({ length: n }, () => values).join(', ');

  const taken = () => statement('taken', () => "SELECT id FROM orders WHERE company_id = ? AND client_number = ? AND state = 'active' LIMIT 1").pluck();
  const insertOrders = (n: number) => statement(`orders${n}`, () => `INSERT INTO orders (${orderColumns}) VALUES ${repeat(orderValues, n)}`);
  const clientNumberOf = () => statement('clientNumberOf', () => 'SELECT client_number FROM orders WHERE id = ?').pluck();
  // the first status and the create job of orders just inserted, ids from..to (appendStatus, outbox.enqueue)
  const insertStatuses = () =>
    statement(
      'statuses',
      () =>
        `INSERT INTO order_statuses (order_id, company_id, key, description, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
         SELECT id, company_id, 'uploading', NULL, created_at, NULL, NULL, NULL, NULL, NULL FROM orders WHERE id BETWEEN ? AND ? ORDER BY id`,
    );
  const insertJobs = () =>
    statement(
      'jobs',
      () => `INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at)
             SELECT id, 'create', 0, created_at + ?, NULL, created_at FROM orders WHERE id BETWEEN ? AND ? ORDER BY id`,
    );
  const releaseJobs = () =>
    statement(
      'release',
      () => "UPDATE outbox SET next_attempt_at = ? WHERE order_id BETWEEN ? AND ? AND action = 'create' AND attempts = 0 AND next_attempt_at > ?",
    );
  const insertImportRows = (n: number) =>
    statement(`importRows${n}`, () => `INSERT INTO import_rows (import_id, seq, row, last_row, client_number, order_id, created_at, error) VALUES ${repeat('(?, ?, ?, ?, ?, ?, ?, ?)', n)}`);

  function writeImportRows(rows: unknown[][]) {
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      insertImportRows(part.length).run(...part.flat());
    }
  }

  /** Inserts a run of orders with one statement; returns their ids in order. */
  function insertRun(ctx: CallContext, run: NewOrder[], now: number, holdMs: number): number[] {
    const params: unknown[] = [];
    for (const { order: o } of run) {
      params.push(ctx.companyId, o.clientNumber, o.providerKey, o.providerConnectId, o.recipientName, o.recipientPhone, o.recipientCity, o.codKopecks, o.assessedKopecks, o.json, now, now, now);
    }
    const last = Number(insertOrders(run.length).run(...params).lastInsertRowid);
    const first = last - run.length + 1;
    // a table's new rowids follow its largest one: the run's ids are first..last (checked, never assumed)
    if (clientNumberOf().get(first) !== run[0].order.clientNumber) throw new Error('import: the new orders did not get consecutive ids');
    insertStatuses().run(first, last);
    insertJobs().run(holdMs, first, last);
    return run.map((_, i) => first + i);
  }

  return {
    /** The live order of the company with each clientNumber, if any (read outside a write). */
    async liveOrderIds(ctx: CallContext, clientNumbers: string[]): Promise<Map<string, number>> {
      const found = new Map<string, number>();
      await db.connection().execute(async () => {
        for (const n of clientNumbers) {
          const id = taken().get(ctx.companyId, n) as number | undefined;
          if (id !== undefined) found.set(n, id);
        }
      });
      return found;
    },

    /**
     * One transaction over the items in order, 50 at a time, until the items end or `budgetMs` has passed
     * (so a slow disk never holds the main thread long): creates the orders (a clientNumber already live in
     * the company is reported as its order's id instead), records every item in import_rows (when importId
     * is given), then tells the UI and the outbox. Returns the outcomes and how many items it took.
     */
    async writeSlice(
      ctx: CallContext,
      importId: number | null,
      items: WriteItem[],
      now: number,
      duplicateError: (order: NewOrder, existingOrderId: number) => string,
      budgetMs = Number.POSITIVE_INFINITY,
      holdMs = 0,
    ): Promise<{ outcomes: WriteOutcome[]; consumed: number }> {
      const outcomes: WriteOutcome[] = [];
      let consumed = 0;
      await db.transaction().execute(async () => {
        // Synchronous from here to commit: the transaction holds the connection, nothing interleaves.
        const started = performance.now();
        const rows: unknown[][] = [];
        while (consumed < items.length) {
          const part = items.slice(consumed, consumed + chunk);
          consumed += part.length;
          const fresh: NewOrder[] = [];
          for (const item of part) {
            if ('error' in item) {
              rows.push([importId, item.seq, item.row, item.lastRow, item.clientNumber, null, null, item.error]);
              continue;
            }
            const existing = taken().get(ctx.companyId, item.order.clientNumber) as number | undefined;
            if (existing !== undefined || fresh.some((f) => f.order.clientNumber === item.order.clientNumber)) {
              outcomes.push({ seq: item.seq, duplicateOf: existing ?? 0 });
              rows.push([importId, item.seq, item.row, item.lastRow, item.order.clientNumber, null, null, duplicateError(item, existing ?? 0)]);
            } else fresh.push(item);
          }
          if (fresh.length) {
            const ids = insertRun(ctx, fresh, now, holdMs);
            fresh.forEach((o, k) => {
              outcomes.push({ seq: o.seq, orderId: ids[k], created: now });
              rows.push([importId, o.seq, o.row, o.lastRow, o.order.clientNumber, ids[k], now, null]);
            });
          }
          if (importId !== null) writeImportRows(rows);
          rows.length = 0;
          if (performance.now() - started > budgetMs) break;
        }
      });
      const orderIds = outcomes.flatMap((o) => ('orderId' in o ? [String(o.orderId)] : []));
      if (orderIds.length) {
        events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds });
        if (holdMs === 0) outbox.kick();
      }
      return { outcomes, consumed };
    },

    /**
     * Makes the held create jobs of orders from..to due now and wakes the outbox. (An import holds its
     * jobs while it writes, so sending does not compete with writing; if the app stops before this,
     * the hold simply runs out.)
     */
    async releaseJobs(from: number, to: number, now: number): Promise<void> {
      await db.connection().execute(async () => {
        releaseJobs().run(now, from, to, now);
      });
      outbox.kick();
    },

    /** The provider numbers and statuses of orders, by id (ids within from..to). */
    async registrations(ctx: CallContext, from: number, to: number): Promise<Map<number, { providerNumber: string | null; status: string }>> {
      const found = new Map<number, { providerNumber: string | null; status: string }>();
      const read = statement('registrations', () => 'SELECT id, provider_number, status_key FROM orders WHERE id BETWEEN ? AND ? AND company_id = ?');
      await db.connection().execute(async () => {
        for (const r of read.all(from, to, ctx.companyId) as { id: number; provider_number: string | null; status_key: string }[]) {
          found.set(r.id, { providerNumber: r.provider_number, status: r.status_key });
        }
      });
      return found;
    },

    /** Records rows that became no order (canceled before their batch). */
    async recordFailures(importId: number, failed: FailedRowRecord[]): Promise<void> {
      if (!failed.length) return;
      await db.transaction().execute(async () => {
        writeImportRows(failed.map((f) => [importId, f.seq, f.row, f.lastRow, f.clientNumber, null, null, f.error]));
      });
    },
  };
}

export type OrderWriter = ReturnType<typeof createOrderWriter>;
