import { afterEach, describe, expect, it } from 'vitest';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';
import { dayStamp } from './handovers';

/**
 * The orders store's handovers (the dispatch screen and its acts) and figures (the "Today" screen, stuck orders, the
 * next test change), on the interface, on every engine.
 */
describe.each(testEngines)('the orders store: handovers and figures ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withShops() {
    opened = await open();
    const { shop, other } = await twoCompanies(opened.stores);
    return { t: opened, store: opened.stores.orders, shop: shop.id, other: other.id };
  }
  const measure = () => ({ places: 3, weightGrams: 1_500 });
  const at = new Date(2026, 10, 25, 12).getTime();

  it('hands over the waiting orders of one service all or nothing, numbering the day\'s handovers per service', async () => {
    const { t, store, shop, other } = await withShops();
    const a = await t.seedOrder(shop, { clientNumber: 'A', providerKey: 'sandbox-express', providerNumber: 'SBE1' });
    const b = await t.seedOrder(shop, { clientNumber: 'B', providerKey: 'sandbox-express', providerNumber: 'SBE2' });
    const post = await t.seedOrder(shop, { clientNumber: 'P', providerKey: 'sandbox-post', providerNumber: 'SBP1' });
    await t.seedOrder(shop, { clientNumber: 'U', providerKey: 'sandbox-express', providerNumber: null });
    await t.seedOrder(shop, { clientNumber: 'C', providerKey: 'sandbox-express', providerNumber: 'SBE3', state: 'canceled' });
    const others = await t.seedOrder(other, { clientNumber: 'O', providerKey: 'sandbox-express', providerNumber: 'SBE4' });

    expect((await store.awaitingHandover(shop)).map((o) => [o.providerKey, o.clientNumber])).toEqual([['sandbox-express', 'A'], ['sandbox-express', 'B'], ['sandbox-post', 'P']]);
    expect(await store.awaitingHandoverCounts(shop)).toEqual(new Map([['sandbox-express', 2], ['sandbox-post', 1]]));
    const first = `${dayStamp(at)}-sandbox-express`;
    expect(await store.nextHandoverNumber(shop, 'sandbox-express', at)).toBe(first);

    // Another service's order, or another company's, refuses the whole: nothing written.
    expect(await store.handOver({ companyId: shop, providerKey: 'sandbox-express', orderIds: [a, post, others], at, measure })).toEqual({ notWaiting: [post, others] });
    expect(await store.awaitingHandoverCounts(shop)).toEqual(new Map([['sandbox-express', 2], ['sandbox-post', 1]]));
    expect(await store.handoversOf(shop, [a, b])).toEqual([null]);

    const done = await store.handOver({ companyId: shop, providerKey: 'sandbox-express', orderIds: [a, b], at, measure });
    expect(done).toEqual({ handover: { id: expect.any(Number), number: first, handedAt: at, orders: 2, places: 3, weightGrams: 1_500 } });
    expect(await store.awaitingHandoverCounts(shop)).toEqual(new Map([['sandbox-post', 1]]));
    expect(await store.handoversOf(shop, [a, b])).toEqual([{ number: first, handedAt: at }]);
    expect(await store.handoversOf(shop, [a, post])).toHaveLength(2);
    expect(await store.handoversOf(other, [a])).toEqual([]);
    // Handed over already: not waiting any more.
    expect(await store.handOver({ companyId: shop, providerKey: 'sandbox-express', orderIds: [a], at, measure })).toEqual({ notWaiting: [a] });
    expect(await store.nextHandoverNumber(shop, 'sandbox-express', at)).toBe(`${first}-2`);
    expect(await store.nextHandoverNumber(other, 'sandbox-express', at)).toBe(first);
    expect(await store.nextHandoverNumber(shop, 'sandbox-post', at)).toBe(`${dayStamp(at)}-sandbox-post`);
  });

  it('counts orders by status and service, times deliveries, finds stuck and unfinished registered orders, each company its own', async () => {
    const { t, store, shop, other } = await withShops();
    const day = 86_400_000;
    const ids: Record<string, number> = {};
    const put = async (clientNumber: string, providerKey: string, statusKey: string, createdAt: number, changedAt: number, companyId = shop) => {
      ids[clientNumber] = await t.seedOrder(companyId, { clientNumber, providerKey, providerNumber: `N-${clientNumber}` });
      await t.db.updateTable('orders').set({ status_key: statusKey, created_at: createdAt, status_changed_at: changedAt }).where('id', '=', ids[clientNumber]).execute();
    };
    await put('D1', 'sandbox-express', 'delivered', 0, 2 * day);
    await put('D2', 'sandbox-express', 'delivered', 0, 4 * day);
    await put('D3', 'sandbox-post', 'delivered', day, 2 * day);
    await put('W1', 'sandbox-post', 'onWay', 0, day);
    await put('W2', 'sandbox-post', 'onWay', 0, 9 * day);
    await put('X', 'sandbox-express', 'onWay', 0, 0, other);
    await t.seedOrder(shop, { clientNumber: 'GONE', providerKey: 'sandbox-post', providerNumber: 'N-GONE', state: 'deleted' });

    expect(await store.countOrders(shop, {}, 'status')).toEqual(new Map([['delivered', 3], ['onWay', 2]]));
    expect(await store.countOrders(shop, {}, 'service')).toEqual(new Map([['sandbox-express', 2], ['sandbox-post', 3]]));
    expect(await store.countOrders(shop, { statusKeys: ['onWay'] }, 'service')).toEqual(new Map([['sandbox-post', 2]]));
    const times = (await store.deliveryTimes(shop, {})).sort((a, b) => a.providerKey.localeCompare(b.providerKey));
    expect(times).toEqual([
      { providerKey: 'sandbox-express', delivered: 2, averageMs: 3 * day, fastestMs: 2 * day, slowestMs: 4 * day },
      { providerKey: 'sandbox-post', delivered: 1, averageMs: day, fastestMs: day, slowestMs: day },
    ]);

    // Unchanged since before day 5: W1 (day 1); not the delivered ones, not W2, not the other company's.
    expect(await store.stuckOrders(shop, { changedBefore: 5 * day, limit: 10, offset: 0 })).toEqual({ orders: [expect.objectContaining({ clientNumber: 'W1', statusChangedAt: day })], total: 1 });
    const stuck = await store.stuckOrders(shop, { changedBefore: 10 * day, limit: 1, offset: 1 });
    expect([stuck.orders.map((o) => o.clientNumber), stuck.total]).toEqual([['W2'], 2]);

    expect((await store.registeredUnfinished(shop, { providerKeys: ['sandbox-post', 'sandbox-express'], limit: 10 })).map((o) => o.clientNumber)).toEqual(['W2', 'W1']);
    expect((await store.registeredUnfinished(shop, { providerKeys: ['sandbox-post'], limit: 1 })).map((o) => o.clientNumber)).toEqual(['W2']);
    expect((await store.registeredUnfinished(shop, { providerKeys: ['sandbox-post'], orderId: ids.W1, limit: 10 })).map((o) => o.clientNumber)).toEqual(['W1']);
    expect(await store.registeredUnfinished(shop, { providerKeys: ['sandbox-post'], orderId: ids.D3, limit: 10 })).toEqual([]);
    expect(await store.registeredUnfinished(shop, { providerKeys: [], limit: 10 })).toEqual([]);
  });
});
