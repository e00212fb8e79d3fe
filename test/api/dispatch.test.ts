import type { Result } from '../../shared/result';
import type { DispatchGroup, Handover } from '../../shared/contract/dispatch';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { createTestApp } from '../helpers/test-app';
import { pdfText } from '../helpers/printed-pages';
import { ownerOf } from '../../electron/core/auth/caller';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('the dispatch screen: registered orders wait for the courier, grouped by service, until handed over', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(async () => env.close());
  const run = (name: string, input: unknown = {}, ctx = env.shop) => env.app.dispatch(name, ctx, input);

  async function create(key: 'sandbox-express' | 'sandbox-post', clientNumber: string, places = 1) {
    const payload = await sandboxPayload(env.app.db, key, clientNumber, (o) => {
      o.places = Array.from({ length: places }, () => ({ weight: 1000, items: [{ description: 'Книга', quantity: 1, cost: 500, weight: 1000 }] }));
      o.order.weight = 1000 * places;
    });
    return value<{ orderId: string }>(await run('orders.create', payload)).orderId;
  }

  it('groups the waiting orders with their places and weight; handing a group over empties it and numbers the act', async () => {
    const a = await create('sandbox-express', 'D-1', 2);
    const b = await create('sandbox-post', 'D-2');
    const c = await create('sandbox-express', 'D-3');
    await env.app.outbox.drain();
    const notYet = await create('sandbox-express', 'D-4'); // not registered: nothing to hand over yet

    const { groups } = value<{ groups: DispatchGroup[] }>(await run('dispatch.pending'));
    expect(groups.map((g) => [g.providerKey, g.orders.map((o) => o.orderId), g.totals, g.nextActNumber])).toEqual([
      ['sandbox-express', [a, c], { orders: 2, places: 3, weightGrams: 3000 }, '20260301-sandbox-express'],
      ['sandbox-post', [b], { orders: 1, places: 1, weightGrams: 1000 }, '20260301-sandbox-post'],
    ]);

    // The act printed before the handover carries the number the handover then takes.
    const act = value<{ base64: string; failedOrders: unknown[] }>(await run('orders.waybills', { orderIds: [a, c] }));
    expect(pdfText(Buffer.from(act.base64, 'base64'))).toContain('№ 20260301-sandbox-express от 01.03.2026');

    const handover = value<Handover>(await run('dispatch.handOver', { providerKey: 'sandbox-express', orderIds: [a, c] }));
    expect(handover).toMatchObject({ number: '20260301-sandbox-express', orders: 2, places: 3, weightGrams: 3000 });
    const after = value<{ groups: DispatchGroup[] }>(await run('dispatch.pending')).groups;
    expect(after.map((g) => g.providerKey)).toEqual(['sandbox-post']);

    // The act of handed-over orders keeps its number even printed again later.
    env.clock.advance(86_400_000);
    expect(pdfText(Buffer.from(value<{ base64: string }>(await run('orders.waybills', { orderIds: [a, c] })).base64, 'base64'))).toContain('№ 20260301-sandbox-express');

    await env.app.outbox.drain();
    const second = value<Handover>(await run('dispatch.handOver', { providerKey: 'sandbox-express', orderIds: [notYet] }));
    expect(second.number).toBe('20260302-sandbox-express');
  });

  it('a second handover the same day gets the next number; what is not waiting refuses the whole handover', async () => {
    const a = await create('sandbox-express', 'E-1');
    const b = await create('sandbox-express', 'E-2');
    const post = await create('sandbox-post', 'E-3');
    await env.app.outbox.drain();
    expect(value<Handover>(await run('dispatch.handOver', { providerKey: 'sandbox-express', orderIds: [a] })).number).toBe('20260301-sandbox-express');

    // Already handed over, another service's, unknown: nothing changes.
    const refused = await run('dispatch.handOver', { providerKey: 'sandbox-express', orderIds: [b, a, post, '999'] });
    expect(refused).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'orderIds.1' }, { field: 'orderIds.2' }, { field: 'orderIds.3' }] } });
    expect(value<{ groups: DispatchGroup[] }>(await run('dispatch.pending')).groups.flatMap((g) => g.orders.map((o) => o.orderId))).toEqual([b, post]);

    expect(value<Handover>(await run('dispatch.handOver', { providerKey: 'sandbox-express', orderIds: [b] })).number).toBe('20260301-sandbox-express-2');

    // Another company sees none of it.
    const other = ownerOf((await env.app.services.companies.ensureWithToken('other-token', 'Other')).companyId);
    expect(value<{ groups: DispatchGroup[] }>(await run('dispatch.pending', {}, other)).groups).toEqual([]);
    expect(await run('dispatch.handOver', { providerKey: 'sandbox-post', orderIds: [post] }, other)).toMatchObject({ ok: false, error: { code: '040002' } });
  });

  it('a canceled order leaves the dispatch screen', async () => {
    const a = await create('sandbox-express', 'C-1');
    await env.app.outbox.drain();
    value(await run('orders.cancel', { orderId: a }));
    expect(value<{ groups: DispatchGroup[] }>(await run('dispatch.pending')).groups).toEqual([]);
  });
});
