import { afterEach, describe, expect, it } from 'vitest';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';
import type { RefreshRun } from './orders-store';

/** The status refresh's reads and writes (tracked orders per company, the statuses a run brought, its runs), on every engine. */

const leaveOut = ['uploading', 'delivered'];
const run = (over: Partial<RefreshRun>): RefreshRun => ({
  companyId: null, trigger: 'schedule', startedAt: 1_000, finishedAt: 2_000, checked: 3, changed: 1, statuses: 2, failed: 0, error: null, ...over,
});

describe.each(testEngines)('the orders store: status refresh runs ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withShops() {
    opened = await open();
    const { shop, other } = await twoCompanies(opened.stores);
    return { opened, store: opened.stores.orders, shop: shop.id, other: other.id };
  }

  it('counts and pages the orders tracking asks about: live, registered, not left out, per company', async () => {
    const { opened, store, shop, other } = await withShops();
    const a = await opened.seedOrder(shop, { clientNumber: 'A', providerKey: 'sandbox', providerNumber: 'S-1' });
    await opened.seedOrder(shop, { clientNumber: 'B', providerKey: 'sandbox', providerNumber: null }); // not registered
    await opened.seedOrder(shop, { clientNumber: 'C', providerKey: 'sandbox', providerNumber: 'S-3', state: 'canceled' });
    const d = await opened.seedOrder(other, { clientNumber: 'D', providerKey: 'sandbox', providerNumber: 'S-4' });
    const e = await opened.seedOrder(shop, { clientNumber: 'E', providerKey: 'sandbox', providerNumber: 'S-5' });
    await opened.db.updateTable('orders').set({ status_key: 'delivered' }).where('id', '=', e).execute(); // finished: left out

    expect(await store.trackedCounts({ leaveOut })).toEqual(new Map([[shop, 1], [other, 1]]));
    expect(await store.trackedCounts({ companyId: other, leaveOut })).toEqual(new Map([[other, 1]]));
    expect(await store.trackedIds({ leaveOut, afterId: 0, limit: 10 })).toEqual([{ id: a, companyId: shop }, { id: d, companyId: other }]);
    expect(await store.trackedIds({ leaveOut, afterId: a, limit: 10 })).toEqual([{ id: d, companyId: other }]);
    expect(await store.trackedIds({ leaveOut, afterId: 0, limit: 1 })).toEqual([{ id: a, companyId: shop }]);
    expect(await store.trackedIds({ companyId: shop, leaveOut: [], afterId: 0, limit: 10 })).toEqual([{ id: a, companyId: shop }, { id: e, companyId: shop }]);
  });

  it('names the live orders whose current status came after a mark, once each, of the company when asked', async () => {
    const { opened, store, shop, other } = await withShops();
    expect(await store.lastStatusId()).toBe(0);
    await opened.seedStatus(shop, 'OLD', 'delivered');
    const mark = await store.lastStatusId();
    expect(mark).toBeGreaterThan(0);
    await opened.seedStatus(shop, 'NEW', 'delivered');
    await opened.seedStatus(other, 'THEIRS', 'problem');
    await opened.seedStatus(shop, 'MOVING', 'inTransit'); // not a status asked about

    const reached = await store.reachedStatuses(mark, ['delivered', 'problem']);
    expect(reached.map((r) => [r.clientNumber, r.key, r.companyId])).toEqual([['NEW', 'delivered', shop], ['THEIRS', 'problem', other]]);
    expect((await store.reachedStatuses(mark, ['delivered', 'problem'], other)).map((r) => r.clientNumber)).toEqual(['THEIRS']);
    expect(await store.reachedStatuses(mark, [])).toEqual([]);
  });

  it('records runs, keeps the newest, and answers the last one every company’s or the company’s', async () => {
    const { store, shop, other } = await withShops();
    expect(await store.lastRefreshRun(null)).toBeNull();
    await store.recordRefreshRun(run({ finishedAt: 2_000 }), 2);
    await store.recordRefreshRun(run({ companyId: shop, trigger: 'manual', finishedAt: 3_000, error: 'CDEK is down' }), 2);
    expect(await store.lastRefreshRun(null)).toEqual(run({ finishedAt: 2_000 }));
    expect(await store.lastRefreshRun(shop)).toEqual(run({ companyId: shop, trigger: 'manual', finishedAt: 3_000, error: 'CDEK is down' }));
    expect(await store.lastRefreshRun(other)).toEqual(run({ finishedAt: 2_000 }));
    // A third run with two kept: the oldest (every company's) goes.
    await store.recordRefreshRun(run({ companyId: other, finishedAt: 4_000 }), 2);
    expect(await store.lastRefreshRun(null)).toBeNull();
    expect((await store.lastRefreshRun(shop))?.finishedAt).toBe(3_000);
  });
});
