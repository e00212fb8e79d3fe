import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../database';
import { failureRow, importChunk as chunk, recordCreated, sortPart, type LedgerRow } from './imported-orders';
import type { FailedImportRow, ImportedOrder, ImportWrite, ImportWriteOutcome } from './orders-store';

/**
 * An import's bulk create on SQLite: one transaction per write instead of one per order, multi-row
 * statements prepared once instead of query building (what makes 10,000 orders take a fraction of a
 * second). What it decides is imported-orders.ts's, as on PostgreSQL; the rows are exactly those of
 * createOrder. Ids come from the database (RETURNING), never assumed consecutive.
 */

const orderColumns =
  'company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city, cod_kopecks, assessed_kopecks, ' +
  'quoted_delivery_kopecks, delivery_kopecks, payload, ' +
  'state, status_key, status_description, status_changed_at, created_at, updated_at';
const orderValues = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', 'uploading', NULL, ?, ?, ?)";

export function sqliteImportWrites(db: Db, sqlite: BetterSqlite3.Database) {
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
  // the first status and the create job of the orders just inserted (as createOrder writes them)
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

  function writeLedger(rows: LedgerRow[]) {
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      insertLedger(part.length).run(...part.flatMap((r) => [r.import_id, r.seq, r.row, r.last_row, r.client_number, r.order_id, r.created_at, r.error]));
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
    let consumed = 0;
    while (consumed < w.items.length) {
      const part = w.items.slice(consumed, consumed + chunk);
      consumed += part.length;
      const sorted = sortPart(w, part, (n) => taken().get(w.companyId, n) as number | undefined);
      if (sorted.fresh.length) recordCreated(w, sorted, insertRun(w.companyId, sorted.fresh, w.at, w.holdMs ?? 0));
      outcomes.push(...sorted.outcomes);
      if (w.importId !== null) writeLedger(sorted.ledger);
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
      await raw(() => sqlite.transaction(() => writeLedger(failed.map((f) => failureRow(importId, f))))());
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
