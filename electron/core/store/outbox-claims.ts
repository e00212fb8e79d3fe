import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Selectable } from 'kysely';
import type { Db } from './database';
import type { OrdersTable, OutboxTable } from './schema';

/**
 * How long a claimed job stays with its holder. Longer than any job takes (a call times out after 15 s; a
 * CDEK create polls for about 12 s more), so a live holder never loses a job it is still running; a
 * holder that died leaves its jobs to whoever claims after this.
 */
export const LEASE_MS = 10 * 60_000;

/** An order's service and account, as the orders table names them. */
export interface ServicePair {
  providerKey: string;
  providerConnectId: number | null;
}

/** Orders (aliased `r`) of any of the pairs; `IS` matches a missing connection too (PostgreSQL: IS NOT DISTINCT FROM). */
const ofPairs = (pairs: ServicePair[]) =>
  sql<boolean>`(${sql.join(
    pairs.map((p) => sql`(r.provider_key = ${p.providerKey} AND r.provider_connect_id IS ${p.providerConnectId})`),
    sql` OR `,
  )})`;

export type Job = Selectable<OutboxTable> & { order: Selectable<OrdersTable> };

/** A due job as the claim query sees it, before it is taken. */
export type Candidate = Selectable<OutboxTable> & { provider_key: string; provider_connect_id: number | null };

/**
 * The queue's bookkeeping in SQL: which jobs are due, taking them with a holder and a lease, and giving
 * them back. On PostgreSQL the same claim becomes one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED).
 */
export function createClaims(db: Db, sqlite: BetterSqlite3.Database, holder: string) {
  let prepared: ReturnType<typeof prepare> | null = null;
  function prepare() {
    return {
      // The lease condition again: a job another holder took between the read and this write stays theirs.
      claim: sqlite.prepare(
        'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, holder = ?, lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until <= ?)',
      ),
      order: sqlite.prepare('SELECT * FROM orders WHERE id = ?'),
      job: sqlite.prepare('SELECT * FROM outbox WHERE id = ?'),
      held: sqlite.prepare('SELECT 1 FROM outbox WHERE id = ? AND holder = ?'),
    };
  }
  const statements = () => (prepared ??= prepare());

  return {
    /**
     * Due jobs nobody holds, oldest due first, in the order the queue must keep: an order's jobs one at a
     * time, and a create behind the older jobs of canceled orders with the same clientNumber at its service.
     * Jobs of the service/connection pairs in `skip` (services that can start no call now) are left out.
     */
    async due(now: number, limit: number, skip: ServicePair[]): Promise<Candidate[]> {
      return db
        .selectFrom('outbox as o')
        .innerJoin('orders as r', 'r.id', 'o.order_id')
        .selectAll('o')
        .select(['r.provider_key', 'r.provider_connect_id'])
        .where('o.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('o.lease_until', 'is', null), eb('o.lease_until', '<=', now)]))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('outbox as p').select(sql`1`.as('x')).whereRef('p.order_id', '=', 'o.order_id').whereRef('p.id', '<', 'o.id'))),
        )
        .where(
          sql<boolean>`NOT (o.action = 'create' AND EXISTS (
            SELECT 1 FROM orders other
            JOIN outbox p ON p.order_id = other.id AND p.id < o.id
            WHERE other.company_id = r.company_id AND other.client_number = r.client_number
              AND other.provider_key = r.provider_key AND other.id != r.id))`,
        )
        .$if(skip.length > 0, (qb) => qb.where(sql<boolean>`NOT ${ofPairs(skip)}`))
        .orderBy('o.next_attempt_at')
        .orderBy('o.id')
        .limit(limit)
        .execute();
    },

    /**
     * Takes the jobs for this holder, in one transaction: the attempt is recorded before the call (what
     * makes a re-send ask the service first) and the earliest retry set, should the holder die mid-call.
     * Returns the jobs it got, with their orders.
     */
    async take(candidates: Candidate[], now: number, retryAt: (job: Candidate) => number): Promise<Job[]> {
      if (candidates.length === 0) return [];
      const st = statements();
      return db.connection().execute(async () =>
        sqlite.transaction(() =>
          candidates.flatMap((c): Job[] => {
            if (st.claim.run(retryAt(c), holder, now + LEASE_MS, c.id, now).changes === 0) return [];
            const job = st.job.get(c.id) as Selectable<OutboxTable>;
            return [{ ...job, order: st.order.get(c.order_id) as Selectable<OrdersTable> }];
          }),
        )(),
      );
    },

    /** Whether the job is still ours: not withdrawn (order canceled or deleted) and not taken over. */
    stillHeld: (job: Job) => db.connection().execute(async () => statements().held.get(job.id, holder) !== undefined),

    /**
     * Gives a failed job back to the queue: not before `notBefore` (the service's Retry-After) nor its
     * backoff, with the failure counted against the attempt limit when `counts`.
     */
    async release(job: Job, error: string, errorMessage: string | null, notBefore: number, counts: boolean): Promise<void> {
      await db
        .updateTable('outbox')
        .set((eb) => ({
          last_error: error,
          last_error_message: errorMessage,
          next_attempt_at: sql<number>`max(${eb.ref('next_attempt_at')}, ${notBefore})`,
          failed_attempts: counts ? sql<number>`${eb.ref('failed_attempts')} + 1` : eb.ref('failed_attempts'),
          holder: null,
          lease_until: null,
        }))
        .where('id', '=', job.id)
        .where('holder', '=', holder)
        .execute();
    },

    /**
     * A service's breaker opened: its waiting jobs are due no sooner than its trial call, so the queue
     * (and the window's "next attempt") says when they will go.
     */
    async holdUntil(pairs: ServicePair[], at: number): Promise<void> {
      if (pairs.length === 0) return;
      await db
        .updateTable('outbox')
        .set((eb) => ({ next_attempt_at: sql<number>`max(${eb.ref('next_attempt_at')}, ${at})` }))
        .where('holder', 'is', null)
        .where('order_id', 'in', (qb) =>
          qb
            .selectFrom('orders as r')
            .select('r.id')
            .where(ofPairs(pairs)),
        )
        .execute();
    },

    /**
     * At start: jobs a previous run of this app held (it crashed or was stopped mid-call) go at once. One
     * SQLite file has one running app, so no lease there can belong to a live holder; with several instances
     * on one database this step is left to lease expiry.
     */
    async releaseAbandoned(): Promise<number> {
      const result = await db.updateTable('outbox').set({ holder: null, lease_until: null }).where('holder', 'is not', null).where('holder', '!=', holder).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type Claims = ReturnType<typeof createClaims>;
