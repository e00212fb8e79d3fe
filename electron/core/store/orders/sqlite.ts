import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Selectable } from 'kysely';
import { searchVariants } from '../../../../shared/search-text';
import type { OpenedDatabase } from '../database';
import { registerFold, sqliteText } from '../filter-sql';
import type { OutboxTable } from '../schema';
import { containsPattern, type OrderSearchSql } from './order-search';
import type { ClaimedJob, CreateOutcome, NewStatus, OrdersStore, OrderToCreate, RegistrationToRecord, TrackingChange } from './orders-store';
import { createOrdersQueries } from './queries';
import { groupCommit } from './group-commit';
import { columnsOf, messageJson, toJob, toOrder, type OrderRow } from './rows';
import { sqliteImportWrites } from './sqlite-imports';

/**
 * The orders store on SQLite: the engine-neutral queries (queries.ts) over better-sqlite3, with the search on its
 * FTS5 index and the hot paths on statements prepared once.
 */

/**
 * The FTS5 trigram indexes (orders_search: the number and the recipient's name, phone, e-mail, city and street as
 * shared/search-text.ts folds them; orders_search_numbers: the service number; migration 0050) need three characters;
 * shorter searches fall back to LIKE over the columns (they match many rows early).
 */
const trigramMinLength = 3;

/** A phrase for FTS5 MATCH: the text as one quoted string, so nothing in it is read as query syntax. */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

const usesSearchIndex = (search: string) => searchVariants(search).every((v) => [...v].length >= trigramMinLength);

/**
 * The ids of the orders whose number, recipient or service number holds a variant: both indexes' matches (an id may
 * come twice; `IN` takes it once). With `sample`, each index's newest `sample` matches.
 */
const indexMatches = (match: string, sample?: number) => {
  const newest = sample === undefined ? sql`` : sql` ORDER BY rowid DESC LIMIT ${sample}`;
  return sql<number>`(SELECT rowid FROM (SELECT rowid FROM orders_search WHERE orders_search MATCH ${match}${newest})
    UNION ALL SELECT rowid FROM (SELECT rowid FROM orders_search_numbers WHERE orders_search_numbers MATCH ${match}${newest}))`;
};

/** SQLite's search: FTS5 MATCH on orders_search and orders_search_numbers (the newest `sample` matches by rowid), LIKE for short searches. */
export const sqliteOrderSearch: OrderSearchSql = {
  indexed: usesSearchIndex,
  matches(eb, search, sample) {
    const variants = searchVariants(search);
    if (usesSearchIndex(search)) {
      return eb('id', 'in', indexMatches(variants.map(phrase).join(' OR '), sample));
    }
    // LIKE folds only Latin letters: look for the text as typed beside its folded forms.
    return eb.or(
      [...new Set([search.trim(), ...variants])].flatMap((v) =>
        (['client_number', 'provider_number', 'recipient_name', 'recipient_phone', 'recipient_city'] as const).map((c) =>
          eb(sql.ref(c), 'like', sql<string>`${containsPattern(v)} ESCAPE '\\'`),
        ),
      ),
    );
  },
};

/**
 * The hot paths' statements (create an order, append a status, claim and record a job, tracking's write), prepared once on
 * the raw connection. Hand-written SQL because the measurement said so (bench create): Kysely's driver
 * prepares every statement anew and builds its query tree per call, which with the commits was most of
 * a POST /orders. They run inside db.connection().execute, so no Kysely transaction is open meanwhile.
 */
function prepareHotPaths(sqlite: BetterSqlite3.Database) {
  const status = sqlite.prepare(
    `INSERT INTO order_statuses (order_id, company_id, key, description, description_message, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const current = sqlite.prepare('UPDATE orders SET status_key = ?, status_description = ?, status_description_message = ?, status_changed_at = ?, updated_at = ? WHERE id = ?');
  const addStatus = (orderId: number, companyId: number, s: NewStatus) =>
    status.run(orderId, companyId, s.key, s.description ?? null, messageJson(s.descriptionMessage), s.at, s.providerCode ?? null, s.providerName ?? null, s.providerDescription ?? null,
      s.createdProvider ?? null, s.errorCode ?? null);
  return {
    order: sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city,
         cod_kopecks, assessed_kopecks, quoted_delivery_kopecks, delivery_kopecks, payload, state, status_key, status_description, status_changed_at, created_at, updated_at)
       VALUES (@company_id, @client_number, @provider_key, @provider_connect_id, @recipient_name, @recipient_phone, @recipient_city,
         @cod_kopecks, @assessed_kopecks, @quoted_delivery_kopecks, @delivery_kopecks, @payload, 'active', @status_key, @status_description, @at, @at, @at)
       ON CONFLICT (company_id, client_number) WHERE state = 'active' DO NOTHING`,
    ),
    job: sqlite.prepare("INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) VALUES (?, ?, 0, ?, NULL, ?)"),
    /** The search index's triggers skip the group's rows while set (set back before commit; migration 0050). */
    deferIndex: sqlite.prepare('UPDATE orders_search_deferred SET deferred = ?'),
    /** Indexes the orders created in a group (ids as a JSON array, never assumed consecutive): one statement, one FTS5 flush. */
    indexCreated: sqlite.prepare(
      'INSERT INTO orders_search (rowid, client_number, recipient) SELECT id, client_number, recipient FROM orders_search_text WHERE id IN (SELECT value FROM json_each(?))',
    ),
    /** Indexes again the service numbers of the orders a group registered (ids as a JSON array). */
    unindexNumbers: sqlite.prepare('DELETE FROM orders_search_numbers WHERE rowid IN (SELECT value FROM json_each(?))'),
    indexNumbers: sqlite.prepare(
      'INSERT INTO orders_search_numbers (rowid, provider_number) SELECT id, provider_number FROM orders WHERE id IN (SELECT value FROM json_each(?)) AND provider_number IS NOT NULL',
    ),
    addStatus,
    /** Records a status and makes it the order's current one. */
    appendStatus(orderId: number, companyId: number, s: NewStatus) {
      addStatus(orderId, companyId, s);
      current.run(s.key, s.description ?? null, messageJson(s.descriptionMessage), s.at, s.at, orderId);
    },
    // The lease condition again: a job another holder took between the read and this write stays theirs.
    claim: sqlite.prepare(
      'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, lease_holder = ?, lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until <= ?)',
    ),
    orderById: sqlite.prepare('SELECT * FROM orders WHERE id = ?'),
    jobById: sqlite.prepare('SELECT * FROM outbox WHERE id = ?'),
    held: sqlite.prepare('SELECT 1 FROM outbox WHERE id = ? AND lease_holder = ?'),
    removeHeld: sqlite.prepare('DELETE FROM outbox WHERE id = ? AND lease_holder = ?'),
    numbers: sqlite.prepare('UPDATE orders SET provider_number = ?, additional_provider_number = ?, barcode = ?, tracking_url = ? WHERE id = ?'),
    // tracking's write (the refresh benchmark's hot path)
    stateOf: sqlite.prepare<[number], { status_key: string; state: string }>('SELECT status_key, state FROM orders WHERE id = ?'),
    reported: sqlite.prepare(
      `INSERT INTO order_statuses (order_id, company_id, key, description, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    ),
    complete: sqlite.prepare('UPDATE order_statuses SET created_provider = ?, provider_code = ?, provider_name = ?, provider_description = ? WHERE id = ?'),
    tracked: sqlite.prepare('UPDATE orders SET status_key = ?, status_description = ?, status_description_message = NULL, status_changed_at = ?, updated_at = ? WHERE id = ?'),
    delivered: sqlite.prepare('UPDATE orders SET quantity_delivered = ?, updated_at = ? WHERE id = ?'),
  };
}

/** The orders store on SQLite (Kysely over better-sqlite3; the hot paths on statements prepared once). */
export function createSqliteOrdersStore(opened: Pick<OpenedDatabase, 'db' | 'sqlite'>): OrdersStore {
  const { db, sqlite } = opened;
  registerFold(sqlite); // the status lists' text filters compare through it, as the reference lists do
  let prepared: ReturnType<typeof prepareHotPaths> | null = null;
  const st = () => (prepared ??= prepareHotPaths(sqlite));
  /** Runs synchronous statements on the raw connection while Kysely's connection is held (nothing else interleaves). */
  const raw = <T>(work: () => T): Promise<T> => db.connection().execute(async () => work());

  /**
   * A group of orders in one transaction, three statements an order and the search index once for the group: the
   * live-number index leaves out an order whose clientNumber a live order has (one earlier in the group included). Any
   * other failure undoes the whole group, which the group commit then writes again an order at a time (group-commit.ts).
   */
  const createAll = sqlite.transaction((orders: OrderToCreate[]) => {
    const s = st();
    s.deferIndex.run(1);
    const outcomes = orders.map((o): CreateOutcome => {
      const made = s.order.run({ company_id: o.companyId, ...columnsOf(o.payload), status_key: 'uploading', status_description: null, at: o.at });
      if (made.changes === 0) return { clientNumberTaken: true };
      const id = Number(made.lastInsertRowid);
      s.addStatus(id, o.companyId, { key: 'uploading', at: o.at });
      s.job.run(id, 'create', o.at, o.at);
      return { orderId: id };
    });
    const ids = outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []));
    if (ids.length) s.indexCreated.run(JSON.stringify(ids));
    s.deferIndex.run(0);
    return outcomes;
  });

  /** Registrations in one transaction, the service numbers indexed once for the group (see createAll). */
  const recordAll = sqlite.transaction((holder: string, registrations: RegistrationToRecord[]) => {
    const s = st();
    s.deferIndex.run(1);
    const recorded = registrations.filter((r) => {
      if (s.removeHeld.run(r.jobId, holder).changes === 0) return false; // withdrawn while the call was out: the result is dropped
      s.numbers.run(r.providerNumber, r.additionalProviderNumber, r.barcode, r.trackingUrl, r.orderId);
      s.appendStatus(r.orderId, r.companyId, r.status);
      return true;
    });
    if (recorded.length) {
      const ids = JSON.stringify(recorded.map((r) => r.orderId));
      s.unindexNumbers.run(ids);
      s.indexNumbers.run(ids);
    }
    s.deferIndex.run(0);
    return recorded.map((r) => r.jobId);
  });


  /** One transaction of synchronous statements prepared once (the refresh benchmark's hot path). */
  const writeTracking = sqlite.transaction((changes: TrackingChange[], now: number) => {
    const s = st();
    const applied = changes.filter((c) => {
      const row = s.stateOf.get(c.orderId);
      return row !== undefined && row.state === 'active' && row.status_key === c.fromKey;
    });
    for (const c of applied) {
      for (const r of c.append) {
        s.reported.run(c.orderId, c.companyId, r.key, r.description ?? null, now, r.providerCode ?? null, r.providerName ?? null, r.providerDescription ?? null, r.at);
      }
      for (const { statusId, status: r } of c.complete) s.complete.run(r.at, r.providerCode ?? null, r.providerName ?? null, r.providerDescription ?? null, statusId);
      const last = c.append.at(-1);
      if (last) s.tracked.run(last.key, last.description ?? null, now, now, c.orderId);
      if (c.quantityDelivered) s.delivered.run(JSON.stringify(c.quantityDelivered), now, c.orderId);
    }
    return applied;
  });

  return {
    ...createOrdersQueries(db, { text: sqliteText, search: sqliteOrderSearch, lockRows: false, payloadText: (path) => sql<string | null>`json_extract(payload, ${sql.lit(`$.${path.join('.')}`)})` }),
    ...sqliteImportWrites(db, sqlite),

    createOrder: groupCommit((orders: OrderToCreate[]) => raw(() => createAll(orders))),

    /** One app on the file, one writer at a time: the lease condition in the UPDATE is all a claim needs. */
    async claimJobs(holder, candidates, now, retryAt, leaseUntil) {
      if (candidates.length === 0) return [];
      const s = st();
      return raw(() =>
        sqlite.transaction(() =>
          candidates.flatMap((c): ClaimedJob[] => {
            if (s.claim.run(retryAt(c), holder, leaseUntil, c.id, now).changes === 0) return [];
            const job = s.jobById.get(c.id) as Selectable<OutboxTable>;
            return [{ ...toJob(job), order: toOrder(s.orderById.get(c.orderId) as OrderRow) }];
          }),
        )(),
      );
    },

    jobStillHeld: (holder, jobId) => raw(() => st().held.get(jobId, holder) !== undefined),

    recordRegistrations: (holder, registrations) => raw(() => recordAll(holder, registrations)),

    /** Runs on the connection Kysely lends (db.connection), so no other transaction is open on it meanwhile. */
    recordTracking: (changes, at) => (changes.length ? raw(() => writeTracking(changes, at)) : Promise.resolve([])),
  };
}
