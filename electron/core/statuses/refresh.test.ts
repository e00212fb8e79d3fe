import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { sandboxPayload } from '../../../test/helpers/sandbox-orders';
import { createTestApp } from '../../../test/helpers/test-app';
import type { AppEvent } from '../events';
import type { Carrier } from '../providers/provider';
import { outcomeFor } from '../providers/sandbox/timeline';
import { newStatuses } from './refresh';

const hour = 3_600_000;

describe('which reported statuses are new', () => {
  const known = (rows: [string, number | null][]) => rows.map(([key, at], i) => ({ id: i + 1, key, createdProvider: at, providerCode: null }));

  it('the service\'s record of the status we set ourselves completes our row instead of repeating it', () => {
    const change = newStatuses(1, 9, known([['uploading', null], ['uploaded', null]]), [
      { key: 'uploaded', at: 100, providerCode: 'UPLOADED' },
      { key: 'onPointIn', at: 200 },
    ]);
    expect(change).toEqual({
      orderId: 1,
      companyId: 9,
      fromKey: 'uploaded',
      append: [{ key: 'onPointIn', at: 200 }],
      complete: [{ statusId: 2, status: { key: 'uploaded', at: 100, providerCode: 'UPLOADED' } }],
    });
  });

  it('our own record with the service time gets the service codes once', () => {
    const change = newStatuses(1, 9, known([['uploaded', 100]]), [{ key: 'uploaded', at: 100, providerCode: 'UPLOADED' }]);
    expect(change).toMatchObject({ append: [], complete: [{ statusId: 1 }] });
  });

  it('a status with the same key and service time is known; history older than what we hold is not repeated', () => {
    const rows = known([['uploading', null], ['uploaded', 100], ['onPointIn', 200], ['onWay', 300]]);
    expect(newStatuses(1, 9, rows, [{ key: 'uploaded', at: 100 }, { key: 'onPointIn', at: 200 }, { key: 'onWay', at: 300 }])).toBeNull();
    expect(newStatuses(1, 9, rows, [{ key: 'problem', at: 250 }, { key: 'onPointOut', at: 400 }])!.append).toEqual([{ key: 'onPointOut', at: 400 }]);
  });

  it('carries the items bought out on a partial return', () => {
    const change = newStatuses(1, 9, known([['uploaded', 100]]), [{ key: 'partialReturn', at: 500, quantityDelivered: { 'TS-01': 1 } }]);
    expect(change!.quantityDelivered).toEqual({ 'TS-01': 1 });
  });
});

describe('status tracking', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let events: AppEvent[];
  beforeEach(async () => {
    env = await createTestApp();
    events = [];
    env.app.events.subscribe((e) => events.push(e));
  });
  afterEach(() => env.close());

  const refresh = (scope = {}) => env.app.services.statusRefresh.refresh(scope);
  const create = async (clientNumber: string, payload = orderPayload(clientNumber)) => {
    const { orderId } = await env.app.services.orders.create(env.shop, orderCreateSchema.parse(payload));
    return orderId;
  };
  const statuses = (orderId: string) =>
    env.app.db
      .selectFrom('order_statuses')
      .select(['key', 'created_at', 'created_provider', 'provider_code'])
      .where('order_id', '=', Number(orderId))
      .orderBy('id')
      .execute();
  const order = (orderId: string) => env.app.db.selectFrom('orders').selectAll().where('id', '=', Number(orderId)).executeTakeFirstOrThrow();

  it('records new statuses with the service\'s time, once, and stops at a final one', async () => {
    const id = await create('T-1');
    await env.app.outbox.drain();
    const registeredAt = env.clock.now();
    env.clock.advance(20 * hour);
    expect(await refresh()).toEqual({ checked: 1, changed: 1, statuses: 2, failed: 0 });
    expect(await statuses(id)).toEqual([
      { key: 'uploading', created_at: registeredAt, created_provider: null, provider_code: null },
      { key: 'uploaded', created_at: registeredAt, created_provider: registeredAt, provider_code: 'UPLOADED' },
      { key: 'onPointIn', created_at: env.clock.now(), created_provider: registeredAt + 5 * hour, provider_code: 'ONPOINTIN' },
      { key: 'onWay', created_at: env.clock.now(), created_provider: registeredAt + 18 * hour, provider_code: 'ONWAY' },
    ]);
    const before = await statuses(id);
    expect(await refresh()).toEqual({ checked: 1, changed: 0, statuses: 0, failed: 0 }); // nothing new: nothing written twice
    expect(await statuses(id)).toEqual(before);
    env.clock.advance(400 * hour);
    await refresh();
    const final = await order(id);
    expect(['delivered', 'returned', 'partialReturn']).toContain(final.status_key);
    expect(await refresh()).toEqual({ checked: 0, changed: 0, statuses: 0, failed: 0 }); // finished orders are not asked about
  });

  it('publishes orders.changed for the company of each changed order', async () => {
    const id = await create('T-2');
    await env.app.outbox.drain();
    env.clock.advance(6 * hour);
    events.length = 0;
    await refresh();
    expect(events).toEqual([{ type: 'orders.changed', companyId: env.shop.companyId, orderIds: [id] }]);
  });

  it('asks only about registered, live, unfinished orders; the UI refreshes its own company', async () => {
    const registered = await create('T-3');
    await env.app.outbox.drain();
    const refused = await create('T-5', orderPayload('T-5', (o) => (o.recipient.city = 'Омск')));
    const canceled = await create('T-6');
    await env.app.outbox.drain();
    await env.app.services.orders.cancel(env.shop, canceled);
    await env.app.outbox.drain();
    expect((await order(refused)).status_key).toBe('uploadingError');
    await create('T-4'); // still uploading
    const other = await env.app.services.companies.ensureWithToken('other-token');
    env.clock.advance(6 * hour);
    expect(await refresh({ companyId: other.companyId })).toMatchObject({ checked: 0 });
    expect(await refresh({ companyId: env.shop.companyId })).toEqual({ checked: 1, changed: 1, statuses: 1, failed: 0 });
    expect((await order(registered)).status_key).toBe('onPointIn');
  });

  it('the statuses.refresh command answers the counts', async () => {
    await create('T-7');
    await env.app.outbox.drain();
    env.clock.advance(6 * hour);
    expect(await env.app.dispatch('statuses.refresh', env.shop, {})).toEqual({ ok: true, value: { checked: 1, changed: 1, statuses: 1, failed: 0 } });
  });

  it('a partial return records what the recipient bought; the order shows it per item', async () => {
    // Tracking numbers decide the outcome: register orders until one comes back partly.
    let partial: string | undefined;
    for (let i = 0; i < 60 && !partial; i++) {
      const id = await create(`P-${i}`);
      await env.app.outbox.drain();
      if (outcomeFor((await order(id)).provider_number!) === 'partialReturn') partial = id;
    }
    expect(partial).toBeDefined();
    env.clock.advance(100 * hour);
    await refresh();
    expect((await order(partial!)).status_key).toBe('partialReturn');
    const detail = await env.app.services.orders.get(env.shop, partial!);
    expect(detail.places[0].items.map((i) => [i.articul, i.quantity, i.quantityDelivered])).toEqual([
      ['TS-01', 2, 2],
      ['CP-02', 1, 0],
    ]);
  });

  it('a service that cannot be asked leaves its orders for next time; the others are recorded', async () => {
    const express = await create('T-8');
    const post = await create('T-9', await sandboxPayload(env.app.db, 'sandbox-post', 'T-9'));
    await env.app.outbox.drain();
    const sandboxPost = env.app.providers.get('sandbox-post')!;
    const track = sandboxPost.track;
    (sandboxPost as Carrier).track = async () => {
      throw new Error('socket hang up');
    };
    env.clock.advance(6 * hour);
    try {
      expect(await refresh()).toEqual({ checked: 2, changed: 1, statuses: 1, failed: 1 });
    } finally {
      sandboxPost.track = track;
    }
    expect((await order(express)).status_key).toBe('onPointIn');
    expect((await order(post)).status_key).toBe('uploaded');
    expect(await refresh()).toMatchObject({ changed: 1, failed: 0 });
  });

  it('an order that changed while the service was being asked keeps its own story', async () => {
    const id = await create('T-10');
    await env.app.outbox.drain();
    const express = env.app.providers.get('sandbox-express')!;
    const track = express.track;
    (express as Carrier).track = async (shipments) => {
      const answer = await track(shipments);
      // Meanwhile the client changes the order: an update is on its way.
      await env.app.services.orders.update(env.shop, id, orderCreateSchema.parse(orderPayload('T-10', (o) => (o.recipient.house = '1'))));
      return answer;
    };
    env.clock.advance(1 * hour);
    try {
      expect(await refresh()).toMatchObject({ checked: 1, changed: 0, statuses: 0 });
    } finally {
      express.track = track;
    }
    expect((await order(id)).status_key).toBe('uploading');
  });
});
