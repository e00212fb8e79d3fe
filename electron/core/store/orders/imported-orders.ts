import { sql } from 'kysely';
import type { Db } from '../database';
import type { ImportRowsTable } from '../schema';
import { chunked } from './chunked';
import type { FailedImportRow, ImportedOrder, ImportWrite, ImportWriteItem, ImportWriteOutcome, Registration } from './orders-store';
import { preparedColumns } from './rows';

/**
 * An import's bulk create: what both engines decide the same way (which items are failures, duplicates or orders
 * to create, and what the ledger records of each), and the write itself in engine-neutral Kysely (PostgreSQL's;
 * SQLite runs it on multi-row statements prepared once: sqlite-imports.ts). The rows are exactly those of
 * createOrder: the order in status `uploading`, its first status, its create job. Ids come from the database
 * (RETURNING), never assumed consecutive.
 */

/** Items per multi-row statement. */
export const importChunk = 50;

/** A row of an import's ledger (import_rows). */
export type LedgerRow = Omit<ImportRowsTable, 'draft_id'>;

/** A failed row as its ledger row. */
export const failureRow = (importId: number, f: FailedImportRow): LedgerRow => ({
  import_id: importId, seq: f.seq, row: f.row, last_row: f.lastRow, client_number: f.clientNumber, order_id: null, created_at: null, error: f.error,
});

/** One part of a write's items, sorted out before its orders are inserted. */
export interface SortedPart {
  /** The orders to create (distinct clientNumbers, none live yet). */
  fresh: ImportedOrder[];
  outcomes: ImportWriteOutcome[];
  ledger: LedgerRow[];
}

/**
 * Sorts a part of the write's items: a failed row goes to the ledger as it is; an order whose clientNumber is live
 * (`live` gives the order's id) or earlier in the part is a duplicate; the rest are to be created.
 */
export function sortPart(w: ImportWrite, part: ImportWriteItem[], live: (clientNumber: string) => number | undefined): SortedPart {
  const sorted: SortedPart = { fresh: [], outcomes: [], ledger: [] };
  for (const item of part) {
    if ('error' in item) {
      sorted.ledger.push(failureRow(w.importId ?? 0, item));
      continue;
    }
    const existing = live(item.order.clientNumber);
    if (existing !== undefined || sorted.fresh.some((f) => f.order.clientNumber === item.order.clientNumber)) {
      duplicate(w, sorted, item, existing ?? 0);
    } else sorted.fresh.push(item);
  }
  return sorted;
}

/** Records an item whose clientNumber is live already as a duplicate of that order (0: one earlier in the write). */
function duplicate(w: ImportWrite, sorted: SortedPart, item: ImportedOrder, of: number) {
  sorted.outcomes.push({ seq: item.seq, duplicateOf: of });
  sorted.ledger.push({ import_id: w.importId ?? 0, seq: item.seq, row: item.row, last_row: item.lastRow, client_number: item.order.clientNumber, order_id: null, created_at: null, error: w.duplicateError(item, of) });
}

/** Records the part's orders as created with these ids (in the order of `fresh`). */
export function recordCreated(w: ImportWrite, sorted: SortedPart, ids: number[]) {
  sorted.fresh.forEach((o, k) => {
    sorted.outcomes.push({ seq: o.seq, orderId: ids[k], created: w.at });
    sorted.ledger.push({ import_id: w.importId ?? 0, seq: o.seq, row: o.row, last_row: o.lastRow, client_number: o.order.clientNumber, order_id: ids[k], created_at: w.at, error: null });
  });
}

/** The company's live orders with these clientNumbers, by clientNumber. */
async function liveIds(db: Db, companyId: number, clientNumbers: string[]) {
  const found = new Map<string, number>();
  for (const part of chunked([...new Set(clientNumbers)])) {
    const rows = await db.selectFrom('orders').select(['id', 'client_number']).where('company_id', '=', companyId).where('state', '=', 'active').where('client_number', 'in', part).execute();
    for (const r of rows) found.set(r.client_number, r.id);
  }
  return found;
}

async function writeLedger(db: Db, rows: LedgerRow[]) {
  for (const part of chunked(rows, importChunk)) await db.insertInto('import_rows').values(part).execute();
}

/**
 * Inserts a part's orders with one statement, then their first statuses and create jobs; an order whose clientNumber
 * another writer took meanwhile is left out by the live-number index and becomes a duplicate. Returns the part sorted.
 */
async function insertPart(trx: Db, w: ImportWrite, sorted: SortedPart): Promise<SortedPart> {
  const made = await trx
    .insertInto('orders')
    .values(
      sorted.fresh.map(({ order }) => ({
        company_id: w.companyId, ...preparedColumns(order), state: 'active' as const, status_key: 'uploading', status_description: null,
        status_changed_at: w.at, created_at: w.at, updated_at: w.at,
      })),
    )
    .onConflict((oc) => oc.columns(['company_id', 'client_number']).where(sql<boolean>`state = 'active'`).doNothing())
    .returning(['id', 'client_number'])
    .execute();
  const idOf = new Map(made.map((r) => [r.client_number, r.id]));
  const raced = sorted.fresh.filter((o) => !idOf.has(o.order.clientNumber));
  if (raced.length) {
    const taken = await liveIds(trx, w.companyId, raced.map((o) => o.order.clientNumber));
    for (const o of raced) duplicate(w, sorted, o, taken.get(o.order.clientNumber) ?? 0);
  }
  const created = { ...sorted, fresh: sorted.fresh.filter((o) => idOf.has(o.order.clientNumber)) };
  const ids = created.fresh.map((o) => idOf.get(o.order.clientNumber)!);
  if (ids.length) {
    const ofPart = (qb: Db) => qb.selectFrom('orders').where('id', 'in', ids).orderBy('id');
    await trx
      .insertInto('order_statuses')
      .columns(['order_id', 'company_id', 'key', 'created_at'])
      .expression(ofPart(trx).select(['id', 'company_id', sql<string>`'uploading'`.as('key'), 'created_at']))
      .execute();
    await trx
      .insertInto('outbox')
      .columns(['order_id', 'action', 'attempts', 'next_attempt_at', 'created_at'])
      .expression(ofPart(trx).select(['id', sql<string>`'create'`.as('action'), sql<number>`0`.as('attempts'), sql<number>`created_at + ${w.holdMs ?? 0}`.as('next'), 'created_at']))
      .execute();
  }
  recordCreated(w, created, ids);
  return created;
}

/** An import's writes in engine-neutral Kysely: one transaction per write, a multi-row statement per part. */
export function importedOrderWrites(db: Db) {
  return {
    createImportedOrders: (w: ImportWrite) =>
      db.transaction().execute(async (trx) => {
        const started = performance.now();
        const budgetMs = w.budgetMs ?? Number.POSITIVE_INFINITY;
        const outcomes: ImportWriteOutcome[] = [];
        let consumed = 0;
        while (consumed < w.items.length) {
          const part = w.items.slice(consumed, consumed + importChunk);
          consumed += part.length;
          const live = await liveIds(trx, w.companyId, part.flatMap((item) => ('error' in item ? [] : [item.order.clientNumber])));
          let sorted = sortPart(w, part, (n) => live.get(n));
          if (sorted.fresh.length) sorted = await insertPart(trx, w, sorted);
          outcomes.push(...sorted.outcomes);
          if (w.importId !== null) await writeLedger(trx, sorted.ledger);
          if (performance.now() - started > budgetMs) break;
        }
        return { outcomes, consumed };
      }),

    recordImportFailures: (importId: number, failed: FailedImportRow[]) =>
      db.transaction().execute((trx) => writeLedger(trx, failed.map((f) => failureRow(importId, f)))),

    liveOrderIds: (companyId: number, clientNumbers: string[]) => liveIds(db, companyId, clientNumbers),

    registrationsOf: async (companyId: number, orderIds: number[]) => {
      const found = new Map<number, Registration>();
      for (const part of chunked(orderIds)) {
        const rows = await db
          .selectFrom('orders')
          .select(['id', 'provider_number', 'status_key'])
          .where('company_id', '=', companyId)
          .where('state', '!=', 'deleted')
          .where('id', 'in', part)
          .execute();
        for (const r of rows) found.set(r.id, { providerNumber: r.provider_number, statusKey: r.status_key });
      }
      return found;
    },

    releaseHeldCreates: async (companyId: number, fromId: number, toId: number, now: number) => {
      await db
        .updateTable('outbox')
        .set({ next_attempt_at: now })
        .where('order_id', 'in', (qb) => qb.selectFrom('orders').select('id').where('id', '>=', fromId).where('id', '<=', toId).where('company_id', '=', companyId))
        .where('action', '=', 'create')
        .where('attempts', '=', 0)
        .where('next_attempt_at', '>', now)
        .execute();
    },
  };
}
