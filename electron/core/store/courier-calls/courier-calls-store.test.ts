import { afterEach, describe, expect, it } from 'vitest';
import { courierCallCreateSchema } from '../../../../shared/schemas/courier-call';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';
import type { CourierCallsStore, NewCourierCall } from './courier-calls-store';

const asked = courierCallCreateSchema.parse({
  providerKey: 'sandbox-courier', date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 2500, city: 'Москва', street: 'ул. Тверская', house: '7',
  contactName: 'Иван Петров', phone: '+79161234567',
});
const newCall = (companyId: number, patch: Partial<NewCourierCall> = {}): NewCourierCall => ({
  companyId, providerKey: 'sandbox-courier', providerConnectId: null, date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', request: asked, orderIds: [], createdAt: 1_000, ...patch,
});

describe.each(testEngines)('courier calls store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  /** The store with the shop and another company. */
  async function withShops() {
    opened = await open();
    const { shop, other } = await twoCompanies(opened.stores);
    return { store: opened.stores.courierCalls, shop: { companyId: shop.id }, other: { companyId: other.id }, seed: opened };
  }

  it('keeps a new call as failed with the given words until the answer settles it; another company never finds it', async () => {
    const { store, shop, other } = await withShops();
    const id = await store.add(newCall(shop.companyId, { orderIds: ['7'] }), 'The delivery service did not answer');
    expect(await store.find(shop.companyId, id)).toMatchObject({
      id, companyId: shop.companyId, state: 'failed', error: 'The delivery service did not answer', providerNumber: null, orderIds: ['7'], request: asked, createdAt: 1_000, canceledAt: null,
    });
    await store.settle(id, { state: 'accepted', providerNumber: null, additionalProviderNumber: 'uuid-1' });
    expect(await store.find(shop.companyId, id)).toMatchObject({ state: 'accepted', error: null, providerNumber: null, additionalProviderNumber: 'uuid-1' });

    const refused = await store.add(newCall(shop.companyId), 'no answer');
    await store.settle(refused, { state: 'refused', error: 'couriers do not come on Sundays' });
    expect(await store.find(shop.companyId, refused)).toMatchObject({ state: 'refused', error: 'couriers do not come on Sundays' });

    expect(await store.find(other.companyId, id)).toBeNull();
    expect(await store.page(other.companyId, { limit: 10, offset: 0 })).toEqual({ calls: [], total: 0 });
  });

  it('pages the company\'s calls newest first with the total', async () => {
    const { store, shop } = await withShops();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await store.add(newCall(shop.companyId, { createdAt: i }), 'no answer'));
    const page = await store.page(shop.companyId, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.calls.map((c) => c.id)).toEqual([ids[3], ids[2]]);
  });

  it('open calls: accepted and not numbered yet or not past, oldest first, one company\'s or all', async () => {
    const { store, shop, other } = await withShops();
    const call = async (companyId: number, date: string, answer: Parameters<CourierCallsStore['settle']>[1]) => {
      const id = await store.add(newCall(companyId, { date }), 'no answer');
      await store.settle(id, answer);
      return id;
    };
    const pastNumbered = await call(shop.companyId, '2026-02-27', { state: 'accepted', providerNumber: '100', additionalProviderNumber: null });
    const pastUnnumbered = await call(shop.companyId, '2026-02-27', { state: 'accepted', providerNumber: null, additionalProviderNumber: 'uuid-2' });
    const today = await call(shop.companyId, '2026-03-01', { state: 'accepted', providerNumber: '101', additionalProviderNumber: null });
    await call(shop.companyId, '2026-03-05', { state: 'refused', error: 'no' });
    await store.add(newCall(shop.companyId, { date: '2026-03-05' }), 'no answer'); // failed
    const othersCall = await call(other.companyId, '2026-03-05', { state: 'accepted', providerNumber: '102', additionalProviderNumber: null });

    expect((await store.open('2026-03-01')).map((c) => c.id)).toEqual([pastUnnumbered, today, othersCall]);
    expect((await store.open('2026-03-01', shop.companyId)).map((c) => c.id)).toEqual([pastUnnumbered, today]);
    expect((await store.open('2026-03-01')).map((c) => c.id)).not.toContain(pastNumbered);
  });

  it('a later word applies only while the call is accepted: a number, a cancel (keeping the number), a refusal (dropping it)', async () => {
    const { store, shop } = await withShops();
    const id = await store.add(newCall(shop.companyId), 'no answer');
    await store.settle(id, { state: 'accepted', providerNumber: null, additionalProviderNumber: 'uuid-3' });
    expect(await store.update(id, { state: 'accepted', providerNumber: '2000001' })).toBe(true);
    expect(await store.update(id, { state: 'canceled', at: 5_000 })).toBe(true);
    expect(await store.find(shop.companyId, id)).toMatchObject({ state: 'canceled', canceledAt: 5_000, providerNumber: '2000001' });
    // Canceled already: neither a second cancel nor the service's refusal changes it.
    expect(await store.update(id, { state: 'canceled', at: 6_000 })).toBe(false);
    expect(await store.update(id, { state: 'refused', error: 'invalid' })).toBe(false);
    expect(await store.find(shop.companyId, id)).toMatchObject({ state: 'canceled', canceledAt: 5_000 });

    const refused = await store.add(newCall(shop.companyId), 'no answer');
    await store.settle(refused, { state: 'accepted', providerNumber: null, additionalProviderNumber: 'uuid-4' });
    expect(await store.update(refused, { state: 'refused', error: 'the interval must be at least 3 hours' })).toBe(true);
    expect(await store.find(shop.companyId, refused)).toMatchObject({ state: 'refused', error: 'the interval must be at least 3 hours', providerNumber: null, additionalProviderNumber: null });
  });
});
