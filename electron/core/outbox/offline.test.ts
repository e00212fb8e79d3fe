import { orderCreateSchema } from '../../../shared/schemas/order';
import { networkSwitch, type NetworkSwitch } from '../../../test/helpers/network-switch';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import type { AppEvent } from '../events';
import { backoffDelay } from './backoff';

describe('orders submitted without a connection', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let net: NetworkSwitch;
  let events: AppEvent[];
  beforeEach(async () => {
    net = networkSwitch();
    env = await createTestApp({ wrapProvider: net.wrap });
    events = [];
    env.app.events.subscribe((e) => events.push(e));
  });
  afterEach(() => env.close());

  const create = async (clientNumber: string) => (await env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber)))).orderId;
  const view = async (): Promise<any> => {
    const result = await env.app.dispatch('outbox.state', env.shop, {});
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return result.value;
  };
  const order = async (id: string) => env.app.services.orders.view(env.shop, id);

  it('wait in the queue while the service is unreachable and go out by themselves when it returns', async () => {
    net.unplug();
    const id = await create('OFF-1');
    await env.app.outbox.drain();
    expect(net.refused).toBe(1);
    expect(await view()).toMatchObject({ pending: 1, retrying: 1, waitingForConnection: true, lastError: expect.stringMatching(/unreachable/) });
    expect(await order(id)).toMatchObject({ order: { statusKey: 'uploading', providerNumber: '' } });
    // The state names the order whose try came back (its detail, when open, shows why it waits).
    expect(events).toContainEqual({ type: 'outbox.state', companyId: env.shop.companyId, pending: 1, waitingForConnection: true, orderIds: [id] });

    net.plugIn();
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    expect(await view()).toMatchObject({ pending: 0, waitingForConnection: false, nextAttemptAt: null });
    expect(await order(id)).toMatchObject({ order: { statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SBE\d+$/) } });
    expect(events.at(-1)).toEqual({ type: 'outbox.state', companyId: env.shop.companyId, pending: 0, waitingForConnection: false, orderIds: [id] });
  });

  it('the service keeps working for checks that need no network, so an offline order is still validated', async () => {
    net.unplug();
    const bad = await env.app.dispatch('orders.create', env.shop, orderPayload('OFF-2', (o) => (o.order.tariffId = 999_999)));
    expect(bad.ok).toBe(false);
    expect(await view()).toMatchObject({ pending: 0 });
  });

  it('a queue that empties says so once, then stays quiet on every idle pass', async () => {
    net.unplug();
    await create('OFF-3');
    await env.app.outbox.drain();
    net.plugIn();
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    const before = events.filter((e) => e.type === 'outbox.state').length;
    await env.app.outbox.drain();
    await env.app.outbox.drain();
    expect(events.filter((e) => e.type === 'outbox.state')).toHaveLength(before);
    expect(events.filter((e) => e.type === 'outbox.state').at(-1)).toMatchObject({ companyId: env.shop.companyId, pending: 0 });
  });
});
