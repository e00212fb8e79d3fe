import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../database';
import type { FailedImportRow, ImportedOrder, ImportWrite, ImportWriteOutcome } from './orders-store';

/**
 * An import's bulk create on SQLite: one transaction per write instead of one per order, multi-row
 * statements prepared once instead of query building (what makes 10,000 orders take a fraction of a
 * second). The rows are exactly those of createOrders: the order in status `uploading`, its first status,
 * its create job. Ids come from the database (RETURNING), never assumed consecutive.
 */

/** Rows per multi-row statement. */
const chunk = 50;

const orderColumns =
  'company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city, cod_kopecks, assessed_kopecks, ' +
  'quoted_delivery_kopecks, delivery_kopecks, payload, ' +
  'state, status_key, status_description, status_changed_at, created_at, updated_at';
const orderValues = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', 'uploading', NULL, ?, ?, ?)";

export function importedOrderWrites(db: Db, sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const statement = (key: string, text: () => string) => {
    let s = cache.get(key);
    if (!s) cache.set(key, (s = sqlite.prepare(text())));
    return s;
  };
  const repeat = (values: string, n: number) => Array.from({ length: n }, () => values).join(', ');
  const marks = (n: number) => repeat('?', n);

  const taken = () => statement('taken', () => "SELECT id FROM orders WHERE company_id = ? AND client_number = ? AND state = 'active' LIMIT 1").pluck();
  const insertOrders = (n: number) => statement(`orders${n}`, () => `INSERT INTO orders (${orderColumns}) VALUES ${repeat(orderValues, n)} RETURNING id, client_number`);
  // the first status and the create job of the orders just inserted (as createOrders writes them)
  const insertStatuses = (n: number) =>
    statement(
      `statuses${n}`,
      () =>
        `INSERT INTO order_statuses (order_id, company_id, key, description, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
         SELECT id, company_id, 'uploading', NULL, created_at, NULL, NULL, NULL, NULL, NULL FROM orders WHERE id IN (${marks(n)}) ORDER BY id`,
    );
  const insertJobs = (n: number) =>
    statement(
      `jobs${n}`,
      () => `INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at)
             SELECT id, 'create', 0, created_at + ?, NULL, created_at FROM orders WHERE id IN (${marks(n)}) ORDER BY id`,
    );
  const release = () =>
    statement(
      'release',
      () => `UPDATE outbox SET next_attempt_at = ? WHERE order_id IN (SELECT id FROM orders WHERE id BETWEEN ? AND ? AND company_id = ?)
             AND action = 'create' AND attempts = 0 AND next_attempt_at > ?`,
    );
  const insertLedger = (n: number) =>
    statement(`ledger${n}`, () => `INSERT INTO import_rows (import_id, seq, row, last_row, client_number, order_id, created_at, error) VALUES ${repeat('(?, ?, ?, ?, ?, ?, ?, ?)', n)}`);

  function writeLedger(rows: unknown[][]) {
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      insertLedger(part.length).run(...part.flat());
    }
  }

  /** Inserts a run of orders (distinct clientNumbers) with one statement; returns their ids in the run's order. */
  function insertRun(companyId: number, run: ImportedOrder[], now: number, holdMs: number): number[] {
    const params: unknown[] = [];
    for (const { order: o } of run) {
      params.push(companyId, o.clientNumber, o.providerKey, o.providerConnectId, o.recipientName, o.recipientPhone, o.recipientCity, o.codKopecks, o.assessedKopecks, o.quotedDeliveryKopecks, o.deliveryKopecks, o.json, now, now, now);
    }
    const made = insertOrders(run.length).all(...params) as { id: number; client_number: string }[];
    const idOf = new Map(made.map((r) => [r.client_number, r.id]));
    const ids = run.map((o) => idOf.get(o.order.clientNumber)!);
    insertStatuses(ids.length).run(...[...ids].sort((a, b) => a - b));
    insertJobs(ids.length).run(holdMs, ...[...ids].sort((a, b) => a - b));
    return ids;
  }

  /** Synchronous from start to commit: the transaction holds the connection, nothing interleaves. */
  const writeSlice = sqlite.transaction((w: ImportWrite) => {
    const started = performance.now();
    const budgetMs = w.budgetMs ?? Number.POSITIVE_INFINITY;
    const outcomes: ImportWriteOutcome[] = [];
    const ledger: unknown[][] = [];
    let consumed = 0;
    while (consumed < w.items.length) {
      const part = w.items.slice(consumed, consumed + chunk);
      consumed += part.length;
      const fresh: ImportedOrder[] = [];
      for (const item of part) {
        if ('error' in item) {
          ledger.push([w.importId, item.seq, item.row, item.lastRow, item.clientNumber, null, null, item.error]);
          continue;
        }
        const existing = taken().get(w.companyId, item.order.clientNumber) as number | undefined;
        if (existing !== undefined || fresh.some((f) => f.order.clientNumber === item.order.clientNumber)) {
          outcomes.push({ seq: item.seq, duplicateOf: existing ?? 0 });
          ledger.push([w.importId, item.seq, item.row, item.lastRow, item.order.clientNumber, null, null, w.duplicateError(item, existing ?? 0)]);
        } else fresh.push(item);
      }
      if (fresh.length) {
        const ids = insertRun(w.companyId, fresh, w.at, w.holdMs ?? 0);
        fresh.forEach((o, k) => {
          outcomes.push({ seq: o.seq, orderId: ids[k], created: w.at });
          ledger.push([w.importId, o.seq, o.row, o.lastRow, o.order.clientNumber, ids[k], w.at, null]);
        });
      }
      if (w.importId !== null) writeLedger(ledger);
      ledger.length = 0;
      if (performance.now() - started > budgetMs) break;
    }
    return { outcomes, consumed };
  });

  /** Statements on the connection Kysely lends, so no other transaction is open on it meanwhile. */
  const raw = <T>(work: () => T): Promise<T> => db.connection().execute(async () => work());

  return {
    createImportedOrders: (write: ImportWrite) => raw(() => writeSlice(write)),

    recordImportFailures: async (importId: number, failed: FailedImportRow[]) => {
      if (!failed.length) return;
      await raw(() => sqlite.transaction(() => writeLedger(failed.map((f) => [importId, f.seq, f.row, f.lastRow, f.clientNumber, null, null, f.error])))());
    },

    liveOrderIds: (companyId: number, clientNumbers: string[]) =>
      raw(() => {
        const found = new Map<string, number>();
        for (const n of clientNumbers) {
          const id = taken().get(companyId, n) as number | undefined;
          if (id !== undefined) found.set(n, id);
        }
        return found;
      }),

    releaseHeldCreates: async (companyId: number, fromId: number, toId: number, now: number) => {
      await raw(() => release().run(now, fromId, toId, companyId, now));
    },
  };
}
