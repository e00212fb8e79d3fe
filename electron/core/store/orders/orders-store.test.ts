import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import { sql } from 'kysely';
import type { Db } from '../database';
import { testEngines, twoCompanies } from '../test-engines';
import { ClientNumberTaken, type OrdersStore } from './orders-store';

/**
 * The orders store's contract, written against the interface only, on every engine of test-engines: each test
 * starts from a fresh, migrated database with two companies in it.
 */
interface StoreUnderTest {
  store: OrdersStore;
  companies: [number, number];
  close(): Promise<void>;
}

const factories: Record<string, () => Promise<StoreUnderTest>> = Object.fromEntries(
  testEngines.map((engine) => [
    engine.name,
    async (): Promise<StoreUnderTest> => {
      const opened = await engine.open();
      const { shop, other } = await twoCompanies(opened.stores);
      return { store: opened.stores.orders, companies: [shop.id, other.id], close: () => opened.close() };
    },
  ]),
);

const payload = (clientNumber: string) => orderCreateSchema.parse(orderPayload(clientNumber));

for (const [engine, open] of Object.entries(factories)) {
  describe(`the orders store (${engine})`, () => {
    let env: StoreUnderTest;
    let store: OrdersStore;
    let shop: number;
    let other: number;
    beforeEach(async () => {
      env = await open();
      store = env.store;
      [shop, other] = env.companies;
    });
    afterEach(() => env.close());

    const createOne = async (clientNumber: string, companyId = shop, at = 1_000) => {
      const outcome = await store.createOrder({ companyId, payload: payload(clientNumber), at });
      if (!('orderId' in outcome)) throw new Error(`${clientNumber} was not created`);
      return outcome.orderId;
    };

    it('creates an order in status uploading with its first status and a create job, and gives back its id', async () => {
      const id = await createOne('A-1', shop, 5_000);
      const found = await store.findOrderWithJobs(shop, id);
      expect(found?.order).toMatchObject({ id, companyId: shop, clientNumber: 'A-1', state: 'active', statusKey: 'uploading', createdAt: 5_000, providerNumber: null });
      expect(found?.order.payload.recipient.contactName).toBe('Анна Смирнова');
      expect(found?.order.codKopecks).toBe(299_050);
      expect(found?.jobs.map((j) => [j.action, j.attempts])).toEqual([['create', 0]]);
    });

    it('creates a group together and refuses only the orders whose clientNumber is live already', async () => {
      await createOne('B-1');
      const outcomes = await Promise.all(
        ([[shop, 'B-2'], [shop, 'B-1'], [shop, 'B-2'], [other, 'B-1']] as const).map(([companyId, n]) => store.createOrder({ companyId, payload: payload(n), at: 1 })),
      );
      expect(outcomes.map((o) => ('orderId' in o ? 'created' : 'taken'))).toEqual(['created', 'taken', 'taken', 'created']);
      const ids = outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []));
      expect(new Set(ids).size).toBe(2);
    });

    it('creates single orders sent at once together: each its own outcome, a clientNumber sent three times stored once, each order whole', async () => {
      await createOne('K-0');
      const numbers = ['K-1', 'K-2', 'K-0', 'K-2', 'K-3', 'K-2'];
      const outcomes = await Promise.all(numbers.map((n, i) => store.createOrder({ companyId: i === 4 ? other : shop, payload: payload(n), at: 9 })));
      expect(outcomes.map((o) => ('orderId' in o ? 'created' : 'taken'))).toEqual(['created', 'created', 'taken', 'taken', 'created', 'taken']);
      const ids = outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []));
      expect(new Set(ids).size).toBe(3);
      for (const [n, id, company] of [['K-1', ids[0], shop], ['K-2', ids[1], shop], ['K-3', ids[2], other]] as const) {
        const found = await store.findOrderWithJobs(company, id);
        expect(found?.order).toMatchObject({ clientNumber: n, companyId: company, statusKey: 'uploading', createdAt: 9 });
        expect(found?.jobs.map((j) => j.action)).toEqual(['create']);
      }
      expect((await store.statusesOf(ids)).map((s) => [s.orderId, s.key]).sort()).toEqual(ids.map((id) => [id, 'uploading']).sort());
      expect(await store.clientNumberTaken(other, 'K-2')).toBe(false);
    });

    it('an order the engine refuses (a NUL character: PostgreSQL takes none in text) takes no other order of its group down with it', async () => {
      const named = (n: string, name: string) => orderCreateSchema.parse(orderPayload(n, (o) => (o.recipient.contactName = name)));
      const results = await Promise.allSettled(
        [named('L-1', 'Анна'), named('L-2', 'Ан\u0000на'), named('L-3', 'Анна')].map((p) => store.createOrder({ companyId: shop, payload: p, at: 9 })),
      );
      for (const i of [0, 2]) expect(results[i]).toMatchObject({ status: 'fulfilled', value: { orderId: expect.any(Number) } });
      // What becomes of the refused one is the engine's: stored whole, or nothing of it.
      const middle = results[1];
      const kept = middle.status === 'fulfilled' && 'orderId' in middle.value ? await store.findOrderWithJobs(shop, middle.value.orderId) : undefined;
      if (kept) expect(kept.jobs.map((j) => j.action)).toEqual(['create']);
      else expect(await store.clientNumberTaken(shop, 'L-2')).toBe(false);
    });

    it('never shows an order to another company', async () => {
      const id = await createOne('C-1');
      expect(await store.findOrder(other, id)).toBeUndefined();
      expect((await store.findOrders(other, [id])).size).toBe(0);
      expect(await store.changeOrder(other, id, 2, (current) => (current ? { state: 'canceled' } : null))).toBe(false);
      expect((await store.findOrder(shop, id))?.state).toBe('active');
    });

    it('cancels an order in one change: transfers dropped, status recorded, clientNumber free again', async () => {
      const id = await createOne('D-1');
      const changed = await store.changeOrder(shop, id, 2_000, (current) => {
        expect(current?.jobs.map((j) => j.action)).toEqual(['create']);
        return { dropTransfers: true, state: 'canceled', status: { key: 'deliveryCanceled', at: 2_000, description: 'Canceled' }, enqueue: 'cancel' };
      });
      expect(changed).toBe(true);
      const found = await store.findOrderWithJobs(shop, id);
      expect(found?.order).toMatchObject({ state: 'canceled', canceledAt: 2_000, statusKey: 'deliveryCanceled', statusDescription: 'Canceled', statusChangedAt: 2_000 });
      expect(found?.jobs.map((j) => j.action)).toEqual(['cancel']);
      expect(await store.clientNumberTaken(shop, 'D-1')).toBe(false);
      await createOne('D-1');
    });

    it('writes nothing of a change its decision refuses', async () => {
      const id = await createOne('E-1');
      await expect(
        store.changeOrder(shop, id, 3, () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect((await store.findOrder(shop, id))?.statusKey).toBe('uploading');
    });

    it('refuses new data whose clientNumber another live order has, with ClientNumberTaken, and changes nothing', async () => {
      await createOne('F-1');
      const id = await createOne('F-2');
      const error = await store.changeOrder(shop, id, 4, () => ({ payload: payload('F-1'), status: { key: 'uploading', at: 4 } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientNumberTaken);
      expect((error as ClientNumberTaken).clientNumber).toBe('F-1');
      expect((await store.findOrder(shop, id))?.clientNumber).toBe('F-2');
    });

    it('lets one of two writers racing for a clientNumber have it, and tells the other ClientNumberTaken', async () => {
      const [a, b] = [await createOne('S-1'), await createOne('S-2')];
      const results = await Promise.allSettled([a, b].map((id) => store.changeOrder(shop, id, 6, () => ({ payload: payload('S-9') }))));
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([true]);
      const refused = results.find((r) => r.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(ClientNumberTaken);
      expect((refused?.reason as ClientNumberTaken).clientNumber).toBe('S-9');
      // the winner has the number, the other keeps its own
      const kept = [(await store.findOrder(shop, a))?.clientNumber, (await store.findOrder(shop, b))?.clientNumber];
      expect(kept.filter((n) => n === 'S-9')).toHaveLength(1);
      expect(kept.filter((n) => n === 'S-1' || n === 'S-2')).toHaveLength(1);

      const creates = await Promise.all([1, 2].map(() => store.createOrder({ companyId: shop, payload: payload('S-10'), at: 7 })));
      expect(creates.map((o) => ('orderId' in o ? 'created' : 'taken')).sort()).toEqual(['created', 'taken']);
    });

    it('deletes an order: it is found no more', async () => {
      const id = await createOne('G-1');
      await store.changeOrder(shop, id, 5, () => ({ dropTransfers: true, state: 'deleted' }));
      expect(await store.findOrder(shop, id)).toBeUndefined();
    });

    it('appends statuses: the newest becomes the current one, its message kept as data', async () => {
      const id = await createOne('H-1');
      await store.appendStatus(id, shop, { key: 'problem', at: 7_000, description: 'Lost', descriptionMessage: { key: 'order.canceledByClient' } });
      expect(await store.findOrder(shop, id)).toMatchObject({ statusKey: 'problem', statusDescription: 'Lost', statusDescriptionMessage: { key: 'order.canceledByClient' }, statusChangedAt: 7_000 });
    });

    describe('the outbox', () => {
      const holder = 'holder-1';
      const claimAll = async (now: number, who = holder) => store.claimJobs(who, await store.dueJobs(now, 100, []), now, () => now + 60_000, now + 600_000);

      it('hands a due job to one holder only, with its order, and counts the attempt', async () => {
        const id = await createOne('J-1');
        const [job] = await claimAll(1_000);
        expect(job).toMatchObject({ orderId: id, action: 'create', attempts: 1, order: { id, clientNumber: 'J-1' } });
        expect(await claimAll(1_000, 'holder-2')).toEqual([]);
        expect(await store.jobStillHeld(holder, job.id)).toBe(true);
        expect(await store.jobStillHeld('holder-2', job.id)).toBe(false);
      });

      it('runs an order’s jobs one at a time, oldest first', async () => {
        const id = await createOne('K-1');
        await store.changeOrder(shop, id, 1_000, () => ({ enqueue: 'update' }));
        expect((await store.dueJobs(1_000, 100, [])).map((j) => j.action)).toEqual(['create']);
      });

      it('holds a reused clientNumber’s create until the old order’s jobs at the service are done, oldest due first', async () => {
        const old = await createOne('R-1');
        await store.changeOrder(shop, old, 1_000, () => ({ state: 'canceled', enqueue: 'cancel' }));
        const other = await createOne('R-2');
        const reused = await createOne('R-1');
        // The old order's create, then its cancel, before the new order's create; R-2 goes meanwhile.
        expect((await store.dueJobs(2_000, 100, [])).map((j) => [j.orderId, j.action])).toEqual([[old, 'create'], [other, 'create']]);
        expect((await store.dueJobs(2_000, 1, [])).map((j) => j.orderId)).toEqual([old]);
        const [created] = await store.claimJobs(holder, (await store.dueJobs(2_000, 1, [])), 2_000, () => 2_000, 9_000);
        await store.finishJob(holder, created, {});
        const [cancel] = await store.claimJobs(holder, (await store.dueJobs(2_000, 1, [])), 2_000, () => 2_000, 9_000);
        expect(cancel).toMatchObject({ orderId: old, action: 'cancel' });
        await store.finishJob(holder, cancel, {});
        expect((await store.dueJobs(2_000, 100, [])).map((j) => j.orderId)).toEqual([other, reused]);
      });

      it('leaves out the jobs of the services a claim skips', async () => {
        await createOne('L-1');
        expect(await store.dueJobs(1_000, 100, [{ providerKey: 'sandbox-express', providerConnectId: null }])).toEqual([]);
        expect(await store.dueJobs(1_000, 100, [{ providerKey: 'another', providerConnectId: null }])).toHaveLength(1);
      });

      it('records a registration: the job goes, the order gets its numbers and status uploaded', async () => {
        const id = await createOne('M-1');
        const [job] = await claimAll(1_000);
        const recorded = await store.recordRegistrations(holder, [
          { jobId: job.id, orderId: id, companyId: shop, providerNumber: 'SBE-1', additionalProviderNumber: null, barcode: 'BC', trackingUrl: null, status: { key: 'uploaded', at: 2_000, createdProvider: 1_900 } },
        ]);
        expect(recorded).toEqual([job.id]);
        expect(await store.findOrderWithJobs(shop, id)).toMatchObject({ order: { providerNumber: 'SBE-1', barcode: 'BC', statusKey: 'uploaded' }, jobs: [] });
      });

      it('finds orders created together by number and recipient, by the service number a registration gives them, and again after a change', async () => {
        const named = (clientNumber: string, contactName: string) => {
          const p = payload(clientNumber);
          return { ...p, recipient: { ...p.recipient, contactName } };
        };
        const [a, b] = await Promise.all([named('Q-101', 'Зоя Кузнецова'), named('Q-102', 'Фёдор Ёлкин')].map((p) => store.createOrder({ companyId: shop, payload: p, at: 1_000 })));
        const found = async (search: string) => (await store.listOrders(shop, { search, limit: 10, offset: 0 })).orders.map((o) => o.clientNumber).sort();
        expect(await found('Q-10')).toEqual(['Q-101', 'Q-102']);
        expect(await found('кузнецов')).toEqual(['Q-101']);
        expect(await found('елкин')).toEqual(['Q-102']);
        const ids = [a, b].map((o) => ('orderId' in o ? o.orderId : 0));
        const jobs = await claimAll(1_000);
        const registration = (orderId: number, providerNumber: string) => ({
          jobId: jobs.find((j) => j.orderId === orderId)!.id, orderId, companyId: shop, providerNumber, additionalProviderNumber: null, barcode: null, trackingUrl: null,
          status: { key: 'uploaded' as const, at: 2_000 },
        });
        await store.recordRegistrations(holder, [registration(ids[0], 'SBX-7301'), registration(ids[1], 'SBX-7302')]);
        expect(await found('SBX-730')).toEqual(['Q-101', 'Q-102']);
        expect(await found('7302')).toEqual(['Q-102']);
        expect(await found('кузнецов')).toEqual(['Q-101']);
        // Writes other than these groups are indexed as before (the group's own indexing ended with it).
        await store.changeOrder(shop, ids[0], 3_000, () => ({ payload: named('Q-101', 'Зоя Морозова') }));
        expect(await found('кузнецов')).toEqual([]);
        expect(await found('морозов')).toEqual(['Q-101']);
        expect(await found('SBX-7301')).toEqual(['Q-101']);
      });

      it('drops the result of a job withdrawn while its call was out', async () => {
        const id = await createOne('N-1');
        const [job] = await claimAll(1_000);
        await store.changeOrder(shop, id, 1_500, () => ({ dropTransfers: true, state: 'canceled' }));
        expect(await store.jobStillHeld(holder, job.id)).toBe(false);
        expect(
          await store.recordRegistrations(holder, [
            { jobId: job.id, orderId: id, companyId: shop, providerNumber: 'X', additionalProviderNumber: null, barcode: null, trackingUrl: null, status: { key: 'uploaded', at: 2_000 } },
          ]),
        ).toEqual([]);
        expect(await store.finishJob(holder, job, { status: { key: 'uploadingError', at: 2_000 } })).toBe(false);
        expect((await store.findOrder(shop, id))?.providerNumber).toBeNull();
      });

      it('gives a failed job back: due again after its backoff or the service’s wait, the failure counted when asked', async () => {
        await createOne('P-1');
        const [job] = await claimAll(1_000);
        await store.releaseJob(holder, job.id, { error: 'timeout', errorMessage: null, notBefore: 90_000, counts: true });
        expect(await store.dueJobs(61_000, 100, [])).toEqual([]);
        const [again] = await store.dueJobs(90_000, 100, []);
        expect(again).toMatchObject({ id: job.id, failedAttempts: 1, lastError: 'timeout', attempts: 1 });
        expect(await store.queueCount()).toEqual({ pending: 1, failing: true });
        expect(await store.queueView(shop)).toMatchObject({ pending: 1, retrying: 1, nextAttemptAt: 90_000, lastError: 'timeout' });
        expect((await store.queueCountsByCompany()).get(shop)).toEqual({ pending: 1, failing: true });
      });

      it('gives a job the service told when to come back due then, not after the backoff its claim set', async () => {
        await createOne('RA-1');
        const [job] = await claimAll(1_000); // its backoff: due again at 61,000
        await store.releaseJob(holder, job.id, { error: '429', errorMessage: null, retryAt: 2_000, notBefore: 0, counts: false });
        expect(await store.dueJobs(1_999, 100, [])).toEqual([]);
        expect((await store.dueJobs(2_000, 100, [])).map((j) => j.id)).toEqual([job.id]);
        // An open breaker still holds it past the Retry-After.
        const [again] = await claimAll(2_000);
        await store.releaseJob(holder, again.id, { error: '503', errorMessage: null, retryAt: 3_000, notBefore: 30_000, counts: false });
        expect(await store.dueJobs(29_999, 100, [])).toEqual([]);
        expect((await store.dueJobs(30_000, 100, [])).map((j) => j.id)).toEqual([job.id]);
      });

      it('tells an order’s next job with its attempts, next try and last error as data, to its own company only', async () => {
        const failing = await createOne('S-1');
        const fresh = await createOne('S-2');
        const [job] = (await claimAll(1_000)).filter((j) => j.orderId === failing);
        const refused = { key: 'provider.credentialsRefused', params: { service: { key: 'service.cdek' }, detail: 'invalid_client' } };
        await store.releaseJob(holder, job.id, { error: 'CDEK did not accept the account\'s credentials: invalid_client', errorMessage: refused, notBefore: 90_000, counts: false });
        await store.changeOrder(shop, failing, 2_000, () => ({ enqueue: 'update' }));
        expect(await store.orderJobState(shop, failing)).toEqual({
          action: 'create', attempts: 1, nextAttemptAt: 90_000, lastError: 'CDEK did not accept the account\'s credentials: invalid_client', lastErrorMessage: refused,
        });
        expect(await store.orderJobState(shop, fresh)).toMatchObject({ action: 'create', attempts: 1, lastError: null, lastErrorMessage: null });
        expect(await store.orderJobState(other, failing)).toBeNull();
        const [again] = await claimAll(90_000);
        expect(again.id).toBe(job.id);
        expect(await store.finishJob(holder, again, {})).toBe(true);
        expect(await store.orderJobState(shop, failing)).toMatchObject({ action: 'update', attempts: 0, lastError: null });
      });

      it('brings back a canceled order whose cancel the service refused, unless its clientNumber was taken meanwhile', async () => {
        const kept = await createOne('Q-1');
        const lost = await createOne('Q-2');
        for (const id of [kept, lost]) await store.changeOrder(shop, id, 1_000, () => ({ dropTransfers: true, state: 'canceled', enqueue: 'cancel' }));
        await createOne('Q-2');
        const jobs = await claimAll(2_000);
        expect(jobs.map((j) => j.action)).toEqual(['cancel', 'cancel']);
        for (const job of jobs) await store.finishJob(holder, job, { revive: true, status: { key: 'problem', at: 3_000 } });
        expect(await store.findOrder(shop, kept)).toMatchObject({ state: 'active', canceledAt: null, statusKey: 'problem' });
        expect(await store.findOrder(shop, lost)).toMatchObject({ state: 'canceled', statusKey: 'problem' });
      });

      it('holds a service’s waiting jobs until a moment, and frees the jobs a previous holder left: at once on SQLite (one app on the file), at their lease’s end on PostgreSQL (another instance may be alive)', async () => {
        await createOne('R-1');
        await createOne('R-2');
        const [taken] = await store.claimJobs('old-run', (await store.dueJobs(1_000, 1, [])), 1_000, () => 1_000, 100_000);
        await store.holdJobsUntil([{ providerKey: 'sandbox-express', providerConnectId: null }], 50_000);
        expect((await store.dueJobs(40_000, 100, [])).map((j) => j.id)).toEqual([]);
        const oneApp = engine === 'sqlite';
        expect(await store.releaseAbandonedJobs(holder)).toBe(oneApp ? 1 : 0);
        expect((await store.dueJobs(40_000, 100, [])).map((j) => j.id)).toEqual(oneApp ? [taken.id] : []);
        expect((await store.dueJobs(100_000, 100, [])).map((j) => j.id)).toContain(taken.id);
      });

      it('gives a job whose lease ended to another holder; the first can then record nothing of it', async () => {
        const id = await createOne('S-1');
        const [first] = await store.claimJobs(holder, await store.dueJobs(1_000, 10, []), 1_000, () => 1_000, 5_000);
        expect(await store.claimJobs('holder-2', await store.dueJobs(4_999, 10, []), 4_999, () => 4_999, 9_000)).toEqual([]);
        const [again] = await store.claimJobs('holder-2', await store.dueJobs(5_000, 10, []), 5_000, () => 5_000, 9_000);
        expect(again).toMatchObject({ id: first.id, attempts: 2 });
        expect(await store.jobStillHeld(holder, first.id)).toBe(false);
        const registration = { jobId: first.id, orderId: id, companyId: shop, providerNumber: 'SBE-9', additionalProviderNumber: null, barcode: null, trackingUrl: null, status: { key: 'uploaded', at: 6_000 } } as const;
        expect(await store.recordRegistrations(holder, [registration])).toEqual([]);
        expect(await store.recordRegistrations('holder-2', [registration])).toEqual([first.id]);
      });

      it('renews the leases of the holder’s own jobs only', async () => {
        await createOne('T-1');
        await createOne('T-2');
        const jobs = await store.claimJobs(holder, await store.dueJobs(1_000, 10, []), 1_000, () => 1_000, 5_000);
        const ids = jobs.map((j) => j.id);
        expect(await store.renewLeases('holder-2', ids, 90_000)).toBe(0);
        expect(await store.renewLeases(holder, ids, 20_000)).toBe(2);
        expect(await store.dueJobs(19_999, 10, [])).toEqual([]);
        expect((await store.dueJobs(20_000, 10, [])).map((j) => j.id).sort()).toEqual([...ids].sort());
      });

      it('never gives one job to two holders claiming at the same moment', async () => {
        for (let i = 1; i <= 20; i++) await createOne(`U-${i}`);
        const candidates = await store.dueJobs(1_000, 100, []);
        const [one, two] = await Promise.all(['holder-a', 'holder-b'].map((who) => store.claimJobs(who, candidates, 1_000, () => 1_000, 60_000)));
        const taken = [...one, ...two].map((j) => j.id);
        expect(new Set(taken).size).toBe(taken.length);
        expect(taken.sort()).toEqual(candidates.map((c) => c.id).sort());
      });
    });
  });
}

const postgres = testEngines.find((e) => e.name === 'postgres');

/** Waits until this many sessions of the database wait for a lock (here: on the live-number index), or gives up. */
async function waitForLockWaits(db: Db, sessions: number) {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
    if (Number(rows[0].n) >= sessions) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${sessions} writers never came to wait on the live-number index`);
}

describe.runIf(postgres)('the orders store on PostgreSQL, writers side by side', () => {
  it('tells ClientNumberTaken when the live-number index refuses a change (SQLSTATE 23505), and skips a create it refuses', async () => {
    const opened = await postgres!.open();
    try {
      const { shop } = await twoCompanies(opened.stores);
      const store = opened.stores.orders;
      const made = await store.createOrder({ companyId: shop.id, payload: payload('W-1'), at: 1 });
      const id = (made as { orderId: number }).orderId;
      // Another writer has W-9 live, its transaction still open: a change's check cannot see it yet.
      const other = await opened.db.startTransaction().execute();
      await other
        .insertInto('orders')
        .values({
          company_id: shop.id, client_number: 'W-9', provider_key: 'sandbox-express', state: 'active', status_key: 'uploading', status_changed_at: 1,
          recipient_name: 'Иван', recipient_phone: '+79990000000', cod_kopecks: 0, assessed_kopecks: 0, payload: '{}', created_at: 1, updated_at: 1,
        })
        .execute();
      const change = store.changeOrder(shop.id, id, 2, () => ({ payload: payload('W-9') })).catch((e: unknown) => e);
      const create = store.createOrder({ companyId: shop.id, payload: payload('W-9'), at: 2 });
      await waitForLockWaits(opened.db, 2);
      await other.commit().execute();
      const error = await change;
      expect(error).toBeInstanceOf(ClientNumberTaken);
      expect((error as ClientNumberTaken).clientNumber).toBe('W-9');
      expect(await create).toEqual({ clientNumberTaken: true });
      expect((await store.findOrder(shop.id, id))?.clientNumber).toBe('W-1');
    } finally {
      await opened.close();
    }
  });
});
