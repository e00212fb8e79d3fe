import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import { openDatabase } from '../database';
import { ClientNumberTaken, type OrdersStore } from './orders-store';
import { createSqliteOrdersStore } from './sqlite';

/**
 * The orders store's contract, written against the interface only: each engine's implementation comes
 * from a factory that gives a fresh, migrated database with two companies in it.
 */
interface StoreUnderTest {
  store: OrdersStore;
  companies: [number, number];
  close(): Promise<void>;
}

const factories: Record<string, () => Promise<StoreUnderTest>> = {
  sqlite: async () => {
    const opened = openDatabase({ file: ':memory:' });
    const ids = [];
    for (const name of ['Shop A', 'Shop B']) {
      const row = await opened.db.insertInto('companies').values({ name, api_token: `token-${name}`, is_desktop: 0, created_at: 1 }).returning('id').executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return { store: createSqliteOrdersStore(opened), companies: [ids[0], ids[1]], close: () => opened.close() };
  },
};

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
      const [outcome] = await store.createOrders([{ companyId, payload: payload(clientNumber), at }]);
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
      const outcomes = await store.createOrders([
        { companyId: shop, payload: payload('B-2'), at: 1 },
        { companyId: shop, payload: payload('B-1'), at: 1 },
        { companyId: shop, payload: payload('B-2'), at: 1 },
        { companyId: other, payload: payload('B-1'), at: 1 },
      ]);
      expect(outcomes.map((o) => ('orderId' in o ? 'created' : 'taken'))).toEqual(['created', 'taken', 'taken', 'created']);
      const ids = outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []));
      expect(new Set(ids).size).toBe(2);
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
      const claimAll = async (now: number, who = holder) => store.claimJobs(who, await store.dueJobs(now, 100, []), now, () => now + 60_000);

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

      it('holds a service’s waiting jobs until a moment, and frees the jobs a previous holder left', async () => {
        await createOne('R-1');
        await createOne('R-2');
        const [taken] = await store.claimJobs('old-run', (await store.dueJobs(1_000, 1, [])), 1_000, () => 1_000);
        await store.holdJobsUntil([{ providerKey: 'sandbox-express', providerConnectId: null }], 50_000);
        expect((await store.dueJobs(40_000, 100, [])).map((j) => j.id)).toEqual([]);
        expect(await store.releaseAbandonedJobs(holder)).toBe(1);
        expect((await store.dueJobs(40_000, 100, [])).map((j) => j.id)).toEqual([taken.id]);
      });
    });
  });
}
