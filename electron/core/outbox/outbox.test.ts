import type { ProviderInfo } from '../../../shared/contract/providers';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { ProviderRejectedError, ProviderUnavailableError, type DeliveryProvider, type ShipmentRequest } from '../providers/provider';
import { backoffDelay } from './backoff';

const info: ProviderInfo = {
  key: 'flaky',
  name: 'Flaky test service',
  description: '',
  test: true,
  capabilities: { cancel: false, update: false, intervals: 'none', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true },
};

/** A delivery service whose next answers the test scripts: it keeps its own books like a real one. */
function scriptedProvider() {
  const registered = new Map<string, string>();
  const script: ('ok' | 'down' | 'lose-reply' | 'refuse')[] = [];
  let registerCalls = 0;
  const provider: DeliveryProvider = {
    info,
    check: async () => [],
    async register(request: ShipmentRequest) {
      registerCalls++;
      const step = script.shift() ?? 'ok';
      if (step === 'down') throw new ProviderUnavailableError('503 Service Unavailable');
      if (step === 'refuse') throw new ProviderRejectedError('the recipient city is unknown to the service');
      const number = `FL-${registered.size + 1}`;
      registered.set(request.clientNumber, number);
      if (step === 'lose-reply') throw new ProviderUnavailableError('socket hang up');
      return { providerNumber: number };
    },
    async find(request) {
      const number = registered.get(request.clientNumber);
      return number ? { providerNumber: number } : null;
    },
    track: async () => new Map(),
  };
  return { provider, script, registered, calls: () => registerCalls };
}

describe('the outbox', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let flaky: ReturnType<typeof scriptedProvider>;
  beforeEach(async () => {
    flaky = scriptedProvider();
    env = await createTestApp({ providers: () => [flaky.provider] });
  });
  afterEach(() => env.close());

  const create = (n: string) => env.app.services.orders.create(env.shop, orderPayload(n, (o) => (o.order.providerKey = 'flaky')) as never);
  const order = async (id: string) => (await env.app.services.orders.list(env.shop, { limit: 10, offset: 0 })).rows.find((r) => r.orderId === id)!;

  it('queues the order in the same transaction and registers it after commit', async () => {
    const { orderId } = await create('N-1');
    expect((await order(orderId)).statusKey).toBe('uploading');
    expect(await env.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: false });
    await env.app.outbox.drain();
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: 'FL-1' });
    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
  });

  it('retries with backoff while the service is down, then goes out by itself', async () => {
    flaky.script.push('down', 'down');
    const { orderId } = await create('N-2');
    await env.app.outbox.drain();
    expect(await env.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: true });
    await env.app.outbox.drain(); // not due yet: nothing is sent
    expect(flaky.calls()).toBe(1);
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(2);
    env.clock.advance(backoffDelay(2));
    await env.app.outbox.drain();
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: 'FL-1' });
  });

  it('a lost reply never registers the order twice: the next attempt finds it at the service', async () => {
    flaky.script.push('lose-reply');
    const { orderId } = await create('N-3');
    await env.app.outbox.drain();
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(1);
    expect(flaky.registered.size).toBe(1);
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: 'FL-1' });
  });

  it('a crash after the call went out is handled like a lost reply', async () => {
    const { orderId } = await create('N-4');
    // The attempt was recorded and the service registered the order, then the process died before commit.
    await env.app.db.updateTable('outbox').set({ attempts: 1 }).execute();
    flaky.registered.set('N-4', 'FL-77');
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(0);
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: 'FL-77' });
  });

  it('a refusal of the data ends in uploadingError with errorCode 200 and is not retried', async () => {
    flaky.script.push('refuse');
    const { orderId } = await create('N-5');
    await env.app.outbox.drain();
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploadingError', statusDescription: 'the recipient city is unknown to the service' });
    const status = await env.app.db.selectFrom('order_statuses').selectAll().where('order_id', '=', Number(orderId)).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(status.error_code).toBe('200');
    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
  });

  it('backs off 2 s, 4 s, 8 s … up to ten minutes', () => {
    expect([1, 2, 3, 4].map(backoffDelay)).toEqual([2000, 4000, 8000, 16000]);
    expect(backoffDelay(30)).toBe(600_000);
  });
});
