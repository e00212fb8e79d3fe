import { sql, type SqlBool } from 'kysely';
import { searchVariants } from '../../../../shared/search-text';
import { postgresText } from '../filter-sql';
import type { OpenedPostgres } from '../postgres';
import { containsPattern, type OrderSearchSql } from './order-search';
import type { Selectable } from 'kysely';
import type { Db } from '../database';
import type { OutboxTable } from '../schema';
import type { ClaimedJob, DueJob, OrdersStore, OrderToCreate } from './orders-store';
import { groupCommit } from './group-commit';
import { createOrdersOnPostgres } from './postgres-create';
import { dueJobsOnPostgres } from './postgres-due-jobs';
import { recordRegistrationsOnPostgres } from './postgres-registrations';
import { recordTrackingOnPostgres } from './postgres-tracking';
import { createOrdersQueries } from './queries';
import { toJob, toOrder } from './rows';

/**
 * What an order is found by, folded as shared/search-text.ts folds it (lower case by ICU's root locale, ё → е; the
 * phone as digits with a leading 8 read as 7), each field on a line of its own so no match spans two of them:
 * PostgreSQL's built-in functions only. The very expression of the pg_trgm index `orders_search_trgm`
 * (migrations/postgres/0047_orders_search.sql): the two must stay the same, or the planner no longer uses the index.
 */
export const orderSearchText = sql.raw(String.raw`(translate(lower((client_number || E'\n' || coalesce(provider_number, '') || E'\n' || recipient_name || E'\n' || coalesce(payload::jsonb #>> '{recipient,email}', '') || E'\n' || coalesce(recipient_city, '') || E'\n' || coalesce(payload::jsonb #>> '{recipient,street}', '') || E'\n' || coalesce(payload::jsonb #>> '{recipient,addressString}', '')) COLLATE "und-x-icu"), 'ё', 'е') || E'\n' || CASE WHEN regexp_replace(recipient_phone, '\D', '', 'g') ~ '^8\d{10}$' THEN '7' || substr(regexp_replace(recipient_phone, '\D', '', 'g'), 2) ELSE regexp_replace(recipient_phone, '\D', '', 'g') END)`);

/** pg_trgm's index needs three characters of a pattern; shorter searches read the rows (they match many early). */
const trigramMinLength = 3;

/** Any variant of the search within the folded text (its LIKE wildcards taken literally). */
const anyVariant = (search: string) =>
  sql<SqlBool>`(${sql.join(
    searchVariants(search).map((v) => sql`${orderSearchText} LIKE ${containsPattern(v)}`),
    sql` OR `,
  )})`;

/** PostgreSQL's search: LIKE '%…%' on the folded text, which the trigram index serves. */
export const postgresOrderSearch: OrderSearchSql = {
  indexed: (search) => searchVariants(search).every((v) => [...v].length >= trigramMinLength),
  matches(eb, search, sample) {
    return sample === undefined
      ? anyVariant(search)
      : eb('id', 'in', sql<number>`(SELECT id FROM orders WHERE ${anyVariant(search)} ORDER BY id DESC LIMIT ${sample})`);
  },
};

/**
 * PostgreSQL's claim, for several instances at once: the candidates still free (no lease, or one that ended) are
 * locked with FOR UPDATE SKIP LOCKED, so an instance never waits on the rows another is claiming and never takes
 * them; one UPDATE leases what it got (each with its own retry time), one SELECT reads their orders.
 */
async function claimJobs(db: Db, holder: string, candidates: DueJob[], now: number, retryAt: (job: DueJob) => number, leaseUntil: number): Promise<ClaimedJob[]> {
  if (candidates.length === 0) return [];
  const retries = sql.join(candidates.map((c) => sql`(${c.id}::bigint, ${retryAt(c)}::bigint)`));
  const ids = sql.join(candidates.map((c) => c.id));
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<Selectable<OutboxTable>>`
      UPDATE outbox SET attempts = outbox.attempts + 1, next_attempt_at = due.retry_at, lease_holder = ${holder}, lease_until = ${leaseUntil}
      FROM (VALUES ${retries}) AS due (id, retry_at)
      WHERE outbox.id = due.id AND outbox.id IN (
        SELECT id FROM outbox WHERE id IN (${ids}) AND (lease_until IS NULL OR lease_until <= ${now}) FOR UPDATE SKIP LOCKED)
      RETURNING outbox.*`.execute(trx);
    if (rows.length === 0) return [];
    const orders = await trx.selectFrom('orders').selectAll().where('id', 'in', rows.map((r) => r.order_id)).execute();
    const byId = new Map(orders.map((o) => [o.id, o]));
    // In the order the claim asked for them (oldest due first), as SQLite's claim gives them.
    const position = new Map(candidates.map((c, i) => [c.id, i]));
    return rows
      .sort((a, b) => position.get(a.id)! - position.get(b.id)!)
      .map((job): ClaimedJob => ({ ...toJob(job), order: toOrder(byId.get(job.order_id)!) }));
  });
}

/**
 * The orders store on PostgreSQL: the engine-neutral queries (queries.ts) over the pool, with the search on a pg_trgm
 * index, text folded by built-ins, orders created a group per statement (postgres-create.ts), an order's row locked
 * while a change reads and decides on it, and the outbox's queue shared by every instance on the database (claimJobs
 * above; nobody frees another's jobs at start).
 */
export function createPostgresOrdersStore({ db }: OpenedPostgres): OrdersStore {
  return {
    ...createOrdersQueries(db, {
      text: postgresText,
      search: postgresOrderSearch,
      lockRows: true,
      payloadText: (path) => sql<string | null>`(payload::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`,
    }),
    createOrder: groupCommit((orders: OrderToCreate[]) => createOrdersOnPostgres(db, orders)),
    dueJobs: (now, limit, skip) => dueJobsOnPostgres(db, now, limit, skip),
    claimJobs: (holder, candidates, now, retryAt, leaseUntil) => claimJobs(db, holder, candidates, now, retryAt, leaseUntil),
    recordTracking: (changes, now) => recordTrackingOnPostgres(db, changes, now),
    recordRegistrations: (holder, registrations) => recordRegistrationsOnPostgres(db, holder, registrations),
    // Several instances share the queue: another holder may be alive, so its jobs wait for their lease to end.
    releaseAbandonedJobs: async () => 0,
  };
}
