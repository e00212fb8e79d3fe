import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import type { Db } from '../database';
import { onPostgres, testEngines, twoCompanies, type TestStores } from '../test-engines';
import type { RegistrationToRecord } from './orders-store';

const postgres = testEngines.find((e) => e.name === 'postgres');

/** Whether some session of the database waits for a lock (a row another transaction holds). */
async function someoneWaits(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
  return Number(rows[0].n) > 0;
}

/**
 * The outbox's writers on PostgreSQL, each on its own connection of the pool as an instance runs them: a statement that
 * locks several jobs must not wait for one while holding another that the waited-for transaction wants next (40P01,
 * seen with two instances in test/api/postgres-instances.test.ts). The interleaving is made by hand, so it is the same
 * every run.
 */
describe.skipIf(!postgres)(onPostgres('the outbox’s locks on PostgreSQL'), () => {
  const holder = 'holder-1';
  let opened: TestStores;
  let jobIds: number[];

  beforeEach(async () => {
    opened = await postgres!.open();
    const { shop } = await twoCompanies(opened.stores);
    const store = opened.stores.orders;
    for (const n of ['L-1', 'L-2', 'L-3']) await store.createOrder({ companyId: shop.id, payload: orderCreateSchema.parse(orderPayload(n)), at: 1_000 });
    // Claimed one at a time, oldest first, so the table's rows lie in id order (the order a scan of it meets them).
    jobIds = [];
    for (const due of await store.dueJobs(1_000, 10, [])) jobIds.push(...(await store.claimJobs(holder, [due], 1_000, () => 1_000, 5_000)).map((j) => j.id));
    const { rows } = await sql<{ id: number }>`SELECT id FROM outbox ORDER BY ctid`.execute(opened.db);
    expect(rows.map((r) => Number(r.id))).toEqual(jobIds);
  });
  afterEach(() => opened.close());

  it('a lease renewal never waits for a job a registration’s transaction holds, so the two cannot deadlock', async () => {
    const [first, , last] = jobIds;
    // Registrations recorded in the order their calls ended: the last job's first. Its transaction holds that row...
    const recording = await opened.db.startTransaction().execute();
    const remove = (jobId: number) => recording.deleteFrom('outbox').where('id', '=', jobId).where('lease_holder', '=', holder).executeTakeFirst();
    expect(Number((await remove(last)).numDeletedRows)).toBe(1);
    // ...while the holder's timer renews the leases of every job still out, on another connection.
    let settled = false;
    const renewal = opened.stores.orders.renewLeases(holder, jobIds, 9_000).then(
      (n) => ((settled = true), n),
      (error: unknown) => ((settled = true), error),
    );
    // Waiting for the last job, a renewal would hold the ones before it: wait until it is done or waits.
    while (!settled && !(await someoneWaits(opened.db))) await new Promise((resolve) => setTimeout(resolve, 10));
    // The registration goes on with the first job: with a waiting renewal holding it, this is the deadlock.
    const next = await remove(first).catch((error: unknown) => error);
    await recording.commit().execute();

    expect(await renewal).toBe(2); // the last job skipped (it is being recorded); the other two moved on
    expect(next).toMatchObject({ numDeletedRows: 1n });
    const { rows } = await sql<{ id: number; lease_until: number }>`SELECT id, lease_until FROM outbox ORDER BY id`.execute(opened.db);
    expect(rows.map((r) => [Number(r.id), Number(r.lease_until)])).toEqual([[jobIds[1], 9_000]]);
  });

  it('records registrations by job id, whatever order they come in, so it takes the jobs in the renewal’s order', async () => {
    const store = opened.stores.orders;
    const { rows: orders } = await sql<{ id: number; order_id: number; company_id: number }>`
      SELECT o.id, o.order_id, r.company_id FROM outbox o JOIN orders r ON r.id = o.order_id ORDER BY o.id`.execute(opened.db);
    const registrations = orders.map((o, i): RegistrationToRecord => ({
      jobId: Number(o.id), orderId: Number(o.order_id), companyId: Number(o.company_id), providerNumber: `N-${i}`,
      additionalProviderNumber: null, barcode: null, trackingUrl: null, status: { key: 'uploaded', at: 2_000 },
    }));
    // The first job was given back and claimed again: its row's new version (and its index entries) lie after the
    // others, so a scan meets it last, as does the list given last first. Only taking the jobs by id meets it first.
    await sql`UPDATE outbox SET lease_holder = NULL, lease_until = NULL WHERE id = ${jobIds[0]}`.execute(opened.db);
    await sql`UPDATE outbox SET lease_holder = ${holder}, lease_until = 5000 WHERE id = ${jobIds[0]}`.execute(opened.db);
    const { rows: scanned } = await sql<{ id: number }>`SELECT id FROM outbox ORDER BY ctid`.execute(opened.db);
    expect(scanned.map((r) => Number(r.id))).toEqual([...jobIds.slice(1), jobIds[0]]);
    // The first job is held elsewhere (a renewal that waits, as one did before it skipped): the recording must stop at
    // it before touching any later job, whatever order its list has.
    const other = await opened.db.startTransaction().execute();
    await sql`SELECT id FROM outbox WHERE id = ${jobIds[0]} FOR UPDATE`.execute(other);
    const recorded = store.recordRegistrations(holder, [...registrations].reverse());
    let free: number[];
    try {
      while (!(await someoneWaits(opened.db))) await new Promise((resolve) => setTimeout(resolve, 10));
      free = (await sql<{ id: number }>`SELECT id FROM outbox WHERE id <> ${jobIds[0]} FOR UPDATE SKIP LOCKED`.execute(other)).rows.map((r) => Number(r.id));
    } finally {
      await other.rollback().execute();
    }
    expect(free).toEqual(jobIds.slice(1));
    expect((await recorded).sort((a, b) => a - b)).toEqual(jobIds);
  });
  it('holding a failing service’s jobs back never waits for one another transaction holds', async () => {
    await sql`UPDATE outbox SET lease_holder = NULL, lease_until = NULL`.execute(opened.db); // given back: waiting to be claimed
    const dueAt = async () =>
      (await sql<{ id: number; next_attempt_at: number }>`SELECT id, next_attempt_at FROM outbox ORDER BY id`.execute(opened.db)).rows.map((r) => [Number(r.id), Number(r.next_attempt_at)]);
    const before = await dueAt();
    // Another transaction holds the middle job (an order being changed locks its jobs)...
    const other = await opened.db.startTransaction().execute();
    await sql`SELECT id FROM outbox WHERE id = ${jobIds[1]} FOR UPDATE`.execute(other);
    // ...while the breaker of the order's service opens and its jobs are held back until the trial call.
    let settled = false;
    const held = opened.stores.orders.holdJobsUntil([{ providerKey: 'sandbox-express', providerConnectId: null }], 50_000).finally(() => (settled = true));
    let waited = false;
    try {
      while (!settled && !(waited = await someoneWaits(opened.db))) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      await other.rollback().execute();
    }
    await held;
    expect(waited).toBe(false); // waiting while holding the first job is half of a deadlock with a writer that wants it next
    expect(await dueAt()).toEqual([[jobIds[0], 50_000], before[1], [jobIds[2], 50_000]]);
  });
});
