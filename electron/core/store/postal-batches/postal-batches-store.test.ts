import { afterEach, describe, expect, it } from 'vitest';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';

describe.each(testEngines)('the postal batches store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withOrders() {
    opened = await open();
    const { shop, other } = await twoCompanies(opened.stores);
    const seed = (companyId: number, clientNumber: string, extra = {}) =>
      opened!.seedOrder(companyId, { clientNumber, providerKey: 'russian-post', providerNumber: `RP-${clientNumber}`, payload: { clientNumber }, ...extra });
    return { batches: opened.stores.postalBatches, shop, other, seed };
  }

  const batch = (name: string, placed: { orderId: number; barcode: string }[]) => ({ name, mailType: 'POSTAL_PARCEL', mailCategory: 'ORDINARY', sendingDate: '2026-11-28', placed });

  it('offers only the company’s registered live orders of the service, with the batch each is in', async () => {
    const { batches, shop, other, seed } = await withOrders();
    const a = await seed(shop.id, 'A');
    const b = await seed(shop.id, 'B');
    const canceled = await seed(shop.id, 'C', { state: 'canceled' });
    const unregistered = await seed(shop.id, 'D', { providerNumber: null });
    const otherService = await opened!.seedOrder(shop.id, { clientNumber: 'E', providerKey: 'cdek', providerNumber: 'CD-1' });
    const foreign = await seed(other.id, 'F');
    const ids = [a, b, canceled, unregistered, otherService, foreign];
    expect((await batches.waiting(shop.id, 'russian-post', ids)).map((o) => [o.clientNumber, o.providerNumber, o.batchId])).toEqual([
      ['A', 'RP-A', null],
      ['B', 'RP-B', null],
    ]);
    const [kept] = await batches.keep(shop.id, 'russian-post', null, [batch('Партия 1', [{ orderId: a, barcode: '80080012345678' }])], 100);
    expect((await batches.waiting(shop.id, 'russian-post', [a])).map((o) => [o.batchId, o.additionalProviderNumber])).toEqual([[kept.id, '80080012345678']]);
    expect(await batches.waiting(shop.id, 'russian-post', [])).toEqual([]);
  });

  it('keeps one batch when the same batch is kept twice at once, with and without a connection', async () => {
    const { batches, shop, seed } = await withOrders();
    const a = await seed(shop.id, 'A');
    const b = await seed(shop.id, 'B');
    for (const connectId of [null, 7]) {
      const kept = await Promise.all([
        batches.keep(shop.id, 'russian-post', connectId, [batch('Партия 1', [{ orderId: a, barcode: 'BC-A' }])], 100),
        batches.keep(shop.id, 'russian-post', connectId, [batch('Партия 1', [{ orderId: b, barcode: 'BC-B' }])], 100),
      ]);
      expect(kept[0][0].id).toBe(kept[1][0].id);
    }
    const listed = await batches.list(shop.id, 10);
    expect(listed.map((l) => [l.name, l.providerConnectId])).toEqual([['Партия 1', 7], ['Партия 1', null]]);
    expect(listed[0].orderIds).toEqual([a, b]);
  });

  it('keeps a batch formed again as the same batch, lists newest first, and never shows another company’s', async () => {
    const { batches, shop, other, seed } = await withOrders();
    const a = await seed(shop.id, 'A');
    const b = await seed(shop.id, 'B');
    const [first] = await batches.keep(shop.id, 'russian-post', null, [batch('Партия 1', [{ orderId: a, barcode: 'BC-A' }])], 100);
    expect(first).toMatchObject({ companyId: shop.id, name: 'Партия 1', providerConnectId: null, createdAt: 100, checkedInAt: null, orderIds: [a] });
    const [again, second] = await batches.keep(shop.id, 'russian-post', null, [batch('Партия 1', [{ orderId: b, barcode: 'BC-B' }]), batch('Партия 2', [])], 200);
    expect(again.id).toBe(first.id);
    expect(again.orderIds).toEqual([a, b]);
    expect((await batches.list(shop.id, 10)).map((x) => [x.name, x.orderIds.length])).toEqual([
      ['Партия 2', 0],
      ['Партия 1', 2],
    ]);
    expect(await batches.find(other.id, first.id)).toBeNull();
    expect(await batches.list(other.id, 10)).toEqual([]);

    await batches.checkedIn(first.id, 300);
    await batches.checkedIn(first.id, 400);
    expect((await batches.find(shop.id, first.id))?.checkedInAt).toBe(300);
    expect(second.id).not.toBe(first.id);
  });
});
