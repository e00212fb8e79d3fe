import type { ProviderInfo } from '../../../shared/contract/providers';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { sandboxPayload } from '../../../test/helpers/sandbox-orders';
import { createApp } from '../app';
import { silentLogger } from '../logger';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { CredentialsRefusedError, ProviderRejectedError, ProviderUnavailableError, type Carrier, type ShipmentRequest } from '../providers/provider';
import { said } from '../../../shared/messages';
import type { OrderView } from '../../../shared/schemas/order-detail';
import { backoffDelay } from './backoff';
import { CREDENTIALS_PAUSE_MS } from './outbox';

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
  const script: ('ok' | 'down' | 'busy' | 'lose-reply' | 'refuse' | 'login')[] = [];
  let registerCalls = 0;
  const provider: Carrier = {
    info,
    check: async () => [],
    async register(request: ShipmentRequest) {
      registerCalls++;
      const step = script.shift() ?? 'ok';
      if (step === 'down') throw new ProviderUnavailableError('503 Service Unavailable');
      if (step === 'busy') throw new ProviderUnavailableError('429 Too Many Requests', { retryAfterMs: 120_000 });
      if (step === 'refuse') throw new ProviderRejectedError('the recipient city is unknown to the service');
      if (step === 'login') throw new CredentialsRefusedError(said('provider.credentialsRefused', { service: 'Flaky', detail: 'invalid_client' }));
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

  it('orders sent at the same moment are each stored and queued once; the same clientNumber twice at once is refused the second time', async () => {
    const results = await Promise.allSettled([create('G-1'), create('G-2'), create('G-1'), create('G-3')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ body: { code: '040002' } });
    expect(await env.app.outbox.state()).toEqual({ pending: 3, waitingForConnection: false });
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(3);
    const rows = (await env.app.services.orders.list(env.shop, { limit: 10, offset: 0 })).rows;
    expect(rows.map((r) => [r.clientNumber, r.statusKey]).sort()).toEqual([['G-1', 'uploaded'], ['G-2', 'uploaded'], ['G-3', 'uploaded']]);
    const history = await env.app.db.selectFrom('order_statuses').select(['order_id', 'key']).orderBy('id').execute();
    expect(history.filter((h) => h.key === 'uploading')).toHaveLength(3);
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

  it('refused credentials pause the connection without using up attempts, say what to fix, and end when a connection is saved', async () => {
    flaky.script.push('login', 'login', 'login');
    const first = await create('N-30');
    const second = await create('N-31');
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(2); // both went out together and found the login refused
    const view = await env.app.dispatch('orders.get', env.shop, { orderId: first.orderId });
    if (!view.ok) throw new Error(JSON.stringify(view.error));
    expect((view.value as OrderView).outbox).toMatchObject({
      action: 'create',
      attempts: 1,
      lastError: "Flaky did not accept the account's credentials: invalid_client",
      lastErrorMessage: { key: 'outbox.credentialsRefused', params: { reason: { key: 'provider.credentialsRefused' } } },
    });
    // Past every backoff, still within the pause: nobody asks the service again.
    env.clock.advance(CREDENTIALS_PAUSE_MS - 1_000);
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(2);
    // After the pause one order tries; refused again, the connection waits another pause, its orders' attempts not counted.
    env.clock.advance(1_000);
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(3);
    const jobs = await env.app.db.selectFrom('outbox').select(['failed_attempts']).execute();
    expect(jobs.map((j) => j.failed_attempts)).toEqual([0, 0]);
    env.clock.advance(backoffDelay(3));
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(3);
    // The shop saves the connection: one order tries at once, and once the login is taken the other follows.
    env.app.outbox.credentialsChanged();
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(5);
    expect(await order(first.orderId)).toMatchObject({ statusKey: 'uploaded' });
    expect(await order(second.orderId)).toMatchObject({ statusKey: 'uploaded' });
    const done = await env.app.dispatch('orders.get', env.shop, { orderId: first.orderId });
    expect(done.ok && (done.value as OrderView).outbox).toBeNull();
  });

  it('a service that answers 429 with Retry-After is not asked again before that time, though the backoff is shorter', async () => {
    flaky.script.push('busy');
    const { orderId } = await create('N-9');
    await env.app.outbox.drain();
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    env.clock.advance(60_000);
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(1);
    env.clock.advance(60_000 - backoffDelay(1));
    await env.app.outbox.drain();
    expect(flaky.calls()).toBe(2);
    expect(await order(orderId)).toMatchObject({ statusKey: 'uploaded' });
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

/** A delivery service that cancels (like lockers) and whose answers the test holds back or scripts. */
function cancelingProvider() {
  const live = new Map<string, string>(); // clientNumber → number
  const canceled = new Set<string>();
  const calls: string[] = [];
  const script: ('ok' | 'down' | 'refuse')[] = [];
  let hold: Promise<void> | null = null;
  let count = 0;
  const step = () => {
    const next = script.shift() ?? 'ok';
    if (next === 'down') throw new ProviderUnavailableError('503 Service Unavailable');
    if (next === 'refuse') throw new ProviderRejectedError('the parcel has already been handed over');
  };
  const provider: Carrier = {
    info: { ...info, key: 'cancels', capabilities: { ...info.capabilities, cancel: true } },
    check: async () => [],
    async register(request) {
      calls.push(`register ${request.clientNumber}`);
      if (hold) await hold;
      step();
      const number = live.get(request.clientNumber) ?? `CX-${++count}`;
      live.set(request.clientNumber, number);
      return { providerNumber: number };
    },
    async find(request) {
      calls.push(`find ${request.clientNumber}`);
      const number = live.get(request.clientNumber);
      return number ? { providerNumber: number } : null;
    },
    async cancel(providerNumber) {
      calls.push(`cancel ${providerNumber}`);
      step();
      for (const [client, number] of live) if (number === providerNumber) live.delete(client);
      canceled.add(providerNumber);
    },
    track: async () => new Map(),
  };
  return {
    provider,
    calls,
    script,
    canceled,
    live,
    holdRegister() {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe('the outbox: update, cancel and delete', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let svc: ReturnType<typeof cancelingProvider>;
  beforeEach(async () => {
    svc = cancelingProvider();
    env = await createTestApp({ providers: () => [svc.provider] });
  });
  afterEach(() => env.close());

  const create = (n: string) => env.app.services.orders.create(env.shop, orderPayload(n, (o) => (o.order.providerKey = 'cancels')) as never);
  const row = (id: string) => env.app.db.selectFrom('orders').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const history = async (id: string) =>
    (await env.app.db.selectFrom('order_statuses').select(['key', 'error_code']).where('order_id', '=', Number(id)).orderBy('id').execute()).map(
      (s) => (s.error_code ? `${s.key}(${s.error_code})` : s.key),
    );

  it('a cancel reaches the service after commit and is retried while it is down', async () => {
    const { orderId } = await create('L-1');
    await env.app.outbox.drain();
    svc.script.push('down');
    await env.app.services.orders.cancel(env.shop, orderId);
    expect(await row(orderId)).toMatchObject({ state: 'canceled', status_key: 'deliveryCanceled' });
    await env.app.outbox.drain();
    expect(svc.canceled.size).toBe(0);
    expect(await env.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: true });
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    expect([...svc.canceled]).toEqual(['CX-1']);
    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
  });

  it('a reused clientNumber reaches the service only after the old order is canceled there', async () => {
    const { orderId } = await create('L-2');
    await env.app.outbox.drain();
    svc.script.push('down');
    await env.app.services.orders.cancel(env.shop, orderId);
    await env.app.outbox.drain(); // the cancel fails and waits
    const again = await create('L-2');
    await env.app.outbox.drain();
    expect(svc.calls.filter((c) => c === 'register L-2')).toHaveLength(1); // the new one waits behind the cancel
    env.clock.advance(backoffDelay(1));
    await env.app.outbox.drain();
    expect(svc.calls.slice(-2)).toEqual(['cancel CX-1', 'register L-2']);
    expect(await row(again.orderId)).toMatchObject({ status_key: 'uploaded', provider_number: 'CX-2' });
  });

  it('canceling while the create is out: the late registration is dropped and the order taken back at the service', async () => {
    const { orderId } = await create('L-3');
    const release = svc.holdRegister();
    const pass = env.app.outbox.drain();
    await vi.waitFor(() => expect(svc.calls).toContain('register L-3'));
    await env.app.services.orders.cancel(env.shop, orderId); // the create was tried: the service may have it
    release();
    await pass;
    await env.app.outbox.drain();
    expect(await history(orderId)).toEqual(['uploading', 'deliveryCanceled']);
    expect(svc.calls).toEqual(['register L-3', 'find L-3', 'cancel CX-1']);
    expect(svc.live.size).toBe(0);
  });

  it('a cancel the service refuses brings the order back with a problem status (errorCode 200)', async () => {
    const { orderId } = await create('L-4');
    await env.app.outbox.drain();
    await env.app.services.orders.cancel(env.shop, orderId);
    svc.script.push('refuse');
    await env.app.outbox.drain();
    expect(await row(orderId)).toMatchObject({ state: 'active', canceled_at: null, status_key: 'problem' });
    expect((await row(orderId)).status_description).toBe('The delivery service refused to cancel the order: the parcel has already been handed over');
    expect(await history(orderId)).toEqual(['uploading', 'uploaded', 'deliveryCanceled', 'problem(200)']);
  });

  it('…but stays canceled when its clientNumber has been used again meanwhile', async () => {
    const { orderId } = await create('L-5');
    await env.app.outbox.drain();
    await env.app.services.orders.cancel(env.shop, orderId);
    await create('L-5');
    svc.script.push('refuse');
    await env.app.outbox.drain();
    expect(await row(orderId)).toMatchObject({ state: 'canceled', status_key: 'problem' });
  });

  it('the queue survives a restart: what was not done runs when the app opens again', async () => {
    const { orderId } = await create('L-6');
    await env.app.outbox.drain();
    await env.app.services.orders.cancel(env.shop, orderId);
    await env.app.close(); // quit before the cancel went out
    const reopened = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger, providers: () => [svc.provider] });
    try {
      expect(await reopened.outbox.state()).toEqual({ pending: 1, waitingForConnection: false });
      await reopened.outbox.drain();
      expect([...svc.canceled]).toEqual(['CX-1']);
    } finally {
      await reopened.close();
    }
  });
});

describe('the outbox with the sandbox services', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const books = (providerNumber: string) =>
    env.app.db.selectFrom('sandbox_shipments').selectAll().where('provider_number', '=', providerNumber).executeTakeFirstOrThrow();
  const row = (id: string) => env.app.db.selectFrom('orders').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();

  it('an update of a registered express order changes its data at the service', async () => {
    const { orderId } = await env.app.services.orders.create(env.shop, orderPayload('X-1') as never);
    await env.app.outbox.drain();
    const number = (await row(orderId)).provider_number!;
    await env.app.services.orders.update(env.shop, orderId, orderCreateSchema.parse(orderPayload('X-1', (o) => (o.recipient.house = '30'))));
    expect((await row(orderId)).status_key).toBe('uploading');
    await env.app.outbox.drain();
    expect(await row(orderId)).toMatchObject({ status_key: 'uploaded', status_description: 'Changes accepted by the delivery service', provider_number: number });
    const shipment = await books(number);
    expect(JSON.parse(shipment.payload).recipient.house).toBe('30');
    expect(shipment.updated_at).toBe(env.clock.now());
  });

  it('an update the service refuses (the parcel was handed over meanwhile) ends in uploadingError, errorCode 200', async () => {
    const { orderId } = await env.app.services.orders.create(env.shop, orderPayload('X-2') as never);
    await env.app.outbox.drain();
    await env.app.services.orders.update(env.shop, orderId, orderCreateSchema.parse(orderPayload('X-2', (o) => (o.recipient.house = '30'))));
    env.clock.advance(6 * 3_600_000);
    await env.app.outbox.drain();
    expect(await row(orderId)).toMatchObject({ status_key: 'uploadingError' });
    expect((await row(orderId)).status_description).toMatch(/^The delivery service refused the changes; it keeps the previous data\. .*handed over/);
    expect(JSON.parse((await books((await row(orderId)).provider_number!)).payload).recipient.house).toBe('28');
  });

  it('cancel and delete mark the service books', async () => {
    const express = await env.app.services.orders.create(env.shop, orderPayload('X-3') as never);
    const post = await env.app.services.orders.create(env.shop, (await sandboxPayload(env.app.db, 'sandbox-post', 'X-4')) as never);
    await env.app.outbox.drain();
    await env.app.services.orders.cancel(env.shop, express.orderId);
    await env.app.services.orders.remove(env.shop, post.orderId);
    await env.app.outbox.drain();
    expect((await books((await row(express.orderId)).provider_number!)).canceled_at).toBe(env.clock.now());
    expect((await books((await row(post.orderId)).provider_number!)).removed_at).toBe(env.clock.now());
  });
});
