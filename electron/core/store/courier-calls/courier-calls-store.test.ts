import { courierCallCreateSchema } from '../../../../shared/schemas/courier-call';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import { createTestApp } from '../../../../test/helpers/test-app';
import type { CallContext } from '../../companies/company-service';
import type { CourierCallsStore, NewCourierCall } from './courier-calls-store';

/**
 * The courier-calls store, through its interface only: any engine's implementation runs this file by giving
 * `open` its store and a way to make companies and orders (here: the SQLite one in a test app).
 */
async function open() {
  const env = await createTestApp();
  const store: CourierCallsStore = env.app.stores.courierCalls;
  return {
    store,
    shop: env.shop as CallContext,
    otherCompany: () => env.app.services.companies.ensureWithToken('another-shop-token', 'Another shop'),
    order: async (ctx: CallContext, clientNumber: string) =>
      Number((await env.app.services.orders.create(ctx, orderCreateSchema.parse(orderPayload(clientNumber)))).orderId),
    registerAll: () => env.app.outbox.drain(),
    cancelOrder: (ctx: CallContext, id: number) => env.app.services.orders.cancel(ctx, String(id)),
    deleteOrder: (ctx: CallContext, id: number) => env.app.services.orders.remove(ctx, String(id)),
    close: () => env.close(),
  };
}

const asked = courierCallCreateSchema.parse({
  providerKey: 'sandbox-courier', date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 2500, city: 'Москва', street: 'ул. Тверская', house: '7',
  contactName: 'Иван Петров', phone: '+79161234567',
});
const newCall = (companyId: number, patch: Partial<NewCourierCall> = {}): NewCourierCall => ({
  companyId, providerKey: 'sandbox-courier', providerConnectId: null, date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', request: asked, orderIds: [], createdAt: 1_000, ...patch,
});

describe('courier calls store', () => {
  let env: Awaited<ReturnType<typeof open>>;
  beforeEach(async () => {
    env = await open();
  });
  afterEach(() => env.close());

  it('keeps a new call as failed with the given words until the answer settles it; another company never finds it', async () => {
    const { store, shop } = env;
    const id = await store.add(newCall(shop.companyId, { orderIds: ['7'] }), 'The delivery service did not answer');
    expect(await store.find(shop.companyId, id)).toMatchObject({
      id, companyId: shop.companyId, state: 'failed', error: 'The delivery service did not answer', providerNumber: null, orderIds: ['7'], request: asked, createdAt: 1_000, canceledAt: null,
    });
    await store.settle(id, { state: 'accepted', providerNumber: null, additionalProviderNumber: 'uuid-1' });
    expect(await store.find(shop.companyId, id)).toMatchObject({ state: 'accepted', error: null, providerNumber: null, additionalProviderNumber: 'uuid-1' });

    const refused = await store.add(newCall(shop.companyId), 'no answer');
    await store.settle(refused, { state: 'refused', error: 'couriers do not come on Sundays' });
    expect(await store.find(shop.companyId, refused)).toMatchObject({ state: 'refused', error: 'couriers do not come on Sundays' });

    const other = await env.otherCompany();
    expect(await store.find(other.companyId, id)).toBeNull();
    expect(await store.page(other.companyId, { limit: 10, offset: 0 })).toEqual({ calls: [], total: 0 });
  });

  it('pages the company\'s calls newest first with the total', async () => {
    const { store, shop } = env;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await store.add(newCall(shop.companyId, { createdAt: i }), 'no answer'));
    const page = await store.page(shop.companyId, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.calls.map((c) => c.id)).toEqual([ids[3], ids[2]]);
  });

  it('open calls: accepted and not numbered yet or not past, oldest first, one company\'s or all', async () => {
    const { store, shop } = env;
    const other = await env.otherCompany();
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
    const { store, shop } = env;
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

  it('orders to collect: the company\'s live orders with their service and numbers; deleted and another company\'s are left out', async () => {
    const { store, shop } = env;
    const registered = await env.order(shop, 'COL-1');
    const canceled = await env.order(shop, 'COL-2');
    await env.registerAll();
    await env.cancelOrder(shop, canceled);
    const deleted = await env.order(shop, 'COL-3'); // not sent yet, so it may be deleted
    await env.deleteOrder(shop, deleted);
    const other = await env.otherCompany();
    const othersOrder = await env.order(other, 'COL-4');

    const found = await store.ordersToCollect(shop.companyId, [registered, canceled, deleted, othersOrder, 999_999]);
    expect(found.map((o) => o.id).sort()).toEqual([registered, canceled].sort());
    expect(found.find((o) => o.id === registered)).toMatchObject({
      companyId: shop.companyId, clientNumber: 'COL-1', providerKey: 'sandbox-express', state: 'active', providerNumber: expect.any(String), order: { order: { clientNumber: 'COL-1' } },
    });
    expect(found.find((o) => o.id === canceled)).toMatchObject({ state: 'canceled' });
    expect(await store.ordersToCollect(shop.companyId, [])).toEqual([]);
  });
});
