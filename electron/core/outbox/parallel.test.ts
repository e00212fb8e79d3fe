import type { ProviderInfo } from '../../../shared/contract/providers';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { createApp } from '../app';
import { silentLogger } from '../logger';
import { betweenCalls } from '../providers/between-calls';
import { ProviderUnavailableError, type Carrier } from '../providers/provider';
import { backoffDelay, jitteredBackoff, MAX_FAILED_ATTEMPTS } from './backoff';
import { JOBS_PER_PLACE } from './lanes';
import { createOutbox } from './outbox';

const info: ProviderInfo = {
  key: 'gated',
  name: 'Gated test service',
  description: '',
  test: true,
  capabilities: { cancel: false, update: false, intervals: 'none', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true },
};

/**
 * A delivery service that keeps its own books and holds every registration until the test opens its gate
 * (a call that is "out"), or fails every call while it is broken.
 */
function gatedService() {
  const books = new Map<string, string>();
  const registrations = new Map<string, number>();
  let waiting: (() => void)[] = [];
  let open = true;
  let broken: string | null = null;
  let calls = 0;
  const provider: Carrier = {
    info,
    check: async () => [],
    async register(request) {
      calls++;
      if (broken) throw new ProviderUnavailableError(broken, { httpStatus: 500 });
      // The service registers the order at once; its answer waits for the gate.
      const number = `GT-${books.size + 1}`;
      books.set(request.clientNumber, number);
      registrations.set(request.clientNumber, (registrations.get(request.clientNumber) ?? 0) + 1);
      if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
      return { providerNumber: number };
    },
    async find(request) {
      calls++;
      if (broken) throw new ProviderUnavailableError(broken, { httpStatus: 500 });
      const number = books.get(request.clientNumber);
      return number ? { providerNumber: number } : null;
    },
    track: async () => new Map(),
  };
  return {
    provider,
    registrations,
    calls: () => calls,
    waiting: () => waiting.length,
    close() {
      open = false;
    },
    open() {
      open = true;
      for (const release of waiting) release();
      waiting = [];
    },
    breakWith(message: string | null) {
      broken = message;
    },
  };
}

/** Resolves once `ready()` holds, checking after each turn of the event loop (no fixed sleeps). */
async function until(ready: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 20_000; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('the outbox in parallel', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let svc: ReturnType<typeof gatedService>;
  beforeEach(async () => {
    svc = gatedService();
    env = await createTestApp({ providers: () => [svc.provider] });
  });
  afterEach(() => env.close());

  const create = (n: string) => env.app.services.orders.create(env.shop, orderPayload(n, (o) => (o.order.providerKey = 'gated')) as never);
  const statusOf = async (orderId: string) => (await env.app.services.orders.view(env.shop, orderId)).order;
  const history = (orderId: string) => env.app.db.selectFrom('order_statuses').selectAll().where('order_id', '=', Number(orderId)).orderBy('id').execute();

  it('a service that fails an order every time stops being asked after the stated number of attempts, with a clear uploadingError', async () => {
    svc.breakWith('HTTP 500: internal error while checking the recipient');
    const { orderId } = await create('LIM-1');
    for (let attempt = 1; attempt <= MAX_FAILED_ATTEMPTS + 3; attempt++) {
      await env.app.outbox.drain();
      env.clock.advance(backoffDelay(attempt));
    }
    expect(svc.calls()).toBe(MAX_FAILED_ATTEMPTS);
    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
    expect(await statusOf(orderId)).toMatchObject({ statusKey: 'uploadingError' });
    expect((await history(orderId)).at(-1)).toMatchObject({
      key: 'uploadingError',
      error_code: '200',
      description: `Gated test service failed ${MAX_FAILED_ATTEMPTS} attempts in a row, so ShipDesk stopped trying. Last error: HTTP 500: internal error while checking the recipient`,
    });
  });

  it('a service that asks to come back later (Retry-After) or cannot be reached does not use up the attempts', async () => {
    const { orderId } = await create('LIM-2');
    let failures = 0;
    svc.provider.register = async () => {
      failures++;
      throw failures % 2
        ? new ProviderUnavailableError('HTTP 503 (retry after 1 s)', { httpStatus: 503, retryAfterMs: 1_000 })
        : new ProviderUnavailableError('could not be reached', { noAnswer: 'network' });
    };
    for (let attempt = 1; attempt <= MAX_FAILED_ATTEMPTS + 5; attempt++) {
      await env.app.outbox.drain();
      env.clock.advance(backoffDelay(attempt));
    }
    expect(failures).toBeGreaterThan(MAX_FAILED_ATTEMPTS);
    expect(await statusOf(orderId)).toMatchObject({ statusKey: 'uploading' });
    expect(await env.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: true });
  });

  it('calls to one service run side by side, never more than eight at once by default', async () => {
    svc.close();
    for (let i = 1; i <= 20; i++) await create(`PAR-${i}`);
    const drained = env.app.outbox.drain();
    await until(() => svc.waiting() === 8, 'eight calls out');
    // Nothing more goes out while eight are out.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(svc.registrations.size).toBe(8);
    svc.open();
    expect(await drained).toBe(20);
    expect([...svc.registrations.values()]).toEqual(Array(20).fill(1));
  });

  it('an order waiting between its calls (the service still checking it) gives its place back: more orders out, never more than eight calls', async () => {
    let calling = 0;
    let mostCalling = 0;
    let betweenNow = 0;
    let checked: () => void = () => {};
    const check = new Promise<void>((resolve) => (checked = resolve));
    /** One call to the service: it stays out for a turn of the event loop, so calls overlap. */
    const call = async () => {
      mostCalling = Math.max(mostCalling, ++calling);
      await new Promise((resolve) => setImmediate(resolve));
      calling--;
    };
    svc.provider.register = async (request) => {
      await call(); // the order is sent
      betweenNow++;
      await betweenCalls(() => check); // the service checks it; no call is out meanwhile
      betweenNow--;
      await call(); // its number is read
      svc.registrations.set(request.clientNumber, (svc.registrations.get(request.clientNumber) ?? 0) + 1);
      return { providerNumber: `GT-${request.clientNumber}` };
    };
    for (let i = 1; i <= 40; i++) await create(`BTW-${i}`);
    const drained = env.app.outbox.drain();
    await until(() => betweenNow === JOBS_PER_PLACE * 8, 'sixteen orders waiting for the check');
    // The jobs' bound holds: nothing more starts while they wait.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(betweenNow).toBe(16);
    expect(mostCalling).toBe(8);
    checked();
    expect(await drained).toBe(40);
    expect(mostCalling).toBe(8);
    expect(svc.registrations.size).toBe(40);
    expect([...svc.registrations.values()].every((n) => n === 1)).toBe(true);
    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
  });

  it('an order back from its wait between calls while the service asked for a pause (429) makes no call until the pause ends', async () => {
    let checked: () => void = () => {};
    const check = new Promise<void>((resolve) => (checked = resolve));
    let numbersRead = 0;
    let told = false;
    svc.provider.register = async (request) => {
      if (request.clientNumber === 'PZ-2' && !told) {
        told = true;
        throw new ProviderUnavailableError('HTTP 429 (retry after 5 s)', { httpStatus: 429, retryAfterMs: 5_000 });
      }
      svc.registrations.set(request.clientNumber, (svc.registrations.get(request.clientNumber) ?? 0) + 1); // the order is sent
      await betweenCalls(() => check); // the service checks it
      numbersRead++; // its number is read
      return { providerNumber: `GT-${request.clientNumber}` };
    };
    svc.provider.find = async (request) => (svc.registrations.has(request.clientNumber) ? { providerNumber: `GT-${request.clientNumber}` } : null);
    const waiting = await create('PZ-1');
    await create('PZ-2');
    const start = env.clock.now();
    const drained = env.app.outbox.drain();
    await until(async () => (await env.app.db.selectFrom('outbox').select('last_error').where('last_error', 'is not', null).execute()).length === 1, 'the 429 recorded');
    checked(); // PZ-1's check is over while the service's pause lasts
    await drained;
    expect(numbersRead).toBe(0);
    const jobs = await env.app.db.selectFrom('outbox').select(['order_id', 'next_attempt_at', 'failed_attempts']).orderBy('order_id').execute();
    // Both wait exactly for the end of the pause, neither attempt counted.
    expect(jobs.map((j) => [String(j.order_id), Number(j.next_attempt_at), j.failed_attempts])).toEqual([
      [waiting.orderId, start + 5_000, 0],
      [expect.any(String), start + 5_000, 0],
    ]);
    env.clock.advance(5_000);
    expect(await env.app.outbox.drain()).toBe(2);
    // PZ-1 was found at the service (it had it), PZ-2 sent: each registered there once.
    expect([...svc.registrations.entries()].sort()).toEqual([['PZ-1', 1], ['PZ-2', 1]]);
  });

  it('an order a service told to come back in a moment (Retry-After) goes again when that moment comes, not at the next pass', async () => {
    let calls = 0;
    const register = svc.provider.register;
    svc.provider.register = async (request) => {
      if (++calls === 1) throw new ProviderUnavailableError('HTTP 503 (retry after 1 s)', { httpStatus: 503, retryAfterMs: 1_000 });
      return register(request);
    };
    await create('RA-1');
    // A pass every ten minutes: only the wake-up for the job that was told when to come back can send it sooner.
    const outbox = createOutbox({ store: env.app.stores.orders, clock: env.clock, providers: env.app.providers, events: env.app.events, log: silentLogger, backoff: () => 0 });
    outbox.start(600_000);
    try {
      await until(async () => (await env.app.db.selectFrom('outbox').select('last_error').executeTakeFirst())?.last_error != null, 'the 503 recorded');
      expect(calls).toBe(1);
      // Not sooner than it said…
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toBe(1);
      // …and once its second has passed, without a pass.
      env.clock.advance(1_000);
      await until(() => svc.registrations.get('RA-1') === 1, 'the order sent again');
      expect(calls).toBe(2);
    } finally {
      await outbox.stop();
    }
  });

  it('orders created while the service has its eight calls out do not each make the queue be read; the next place freed takes them', async () => {
    svc.close();
    for (let i = 1; i <= 8; i++) await create(`BUSY-${i}`);
    let reads = 0;
    const store = env.app.stores.orders;
    const counted = { ...store, dueJobs: (...args: Parameters<typeof store.dueJobs>) => (reads++, store.dueJobs(...args)) };
    const outbox = createOutbox({ store: counted, clock: env.clock, providers: env.app.providers, events: env.app.events, log: silentLogger });
    outbox.start(600_000);
    try {
      await until(() => svc.waiting() === 8, 'eight calls out');
      const readsWhenBusy = reads;
      for (let i = 9; i <= 20; i++) {
        await create(`BUSY-${i}`);
        outbox.kick();
      }
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(reads).toBe(readsWhenBusy);
      svc.open();
      await until(() => svc.registrations.size === 20, 'all twenty sent');
      expect([...svc.registrations.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await outbox.stop();
    }
  });

  it('on stop it claims nothing new, waits for the calls that are out, and leaves the rest queued for the next start', async () => {
    svc.close();
    for (let i = 1; i <= 30; i++) await create(`STOP-${i}`);
    env.app.outbox.start(60_000);
    await until(() => svc.waiting() === 8, 'eight calls out');
    const stopped = env.app.outbox.stop();
    svc.open();
    await stopped;
    expect(svc.registrations.size).toBe(8);
    expect(await env.app.outbox.state()).toEqual({ pending: 22, waitingForConnection: false });
    await env.app.close();

    const reopened = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger, providers: () => [svc.provider] });
    try {
      await reopened.outbox.drain();
      expect(await reopened.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
      expect(svc.registrations.size).toBe(30);
      expect([...svc.registrations.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it('calls still out when the wait for them ends are asked about at the next start, never registered twice', async () => {
    svc.close();
    for (let i = 1; i <= 12; i++) await create(`CUT-${i}`);
    const outbox = createOutbox({ store: env.app.stores.orders, clock: env.clock, providers: env.app.providers, events: env.app.events, log: silentLogger, stopGraceMs: 20 });
    outbox.start(60_000);
    await until(() => svc.waiting() === 8, 'eight calls out');
    await outbox.stop(); // returns after its grace although eight calls are still out
    await env.app.close();
    svc.open(); // their answers come after the app has gone

    const reopened = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger, providers: () => [svc.provider] });
    try {
      env.clock.advance(backoffDelay(1));
      await reopened.outbox.drain();
      expect(await reopened.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
      const rows = await reopened.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).execute();
      expect(rows.filter((r) => r.status_key !== 'uploaded')).toEqual([]);
      expect(svc.registrations.size).toBe(12);
      expect([...svc.registrations.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await reopened.close();
    }
  });
});

describe('backoff', () => {
  it('waits somewhere in the upper half of 2 s, 4 s, 8 s … so orders that failed together come back spread out', () => {
    expect([0, 0.5, 1].map((r) => jitteredBackoff(1, () => r))).toEqual([1_000, 1_500, 2_000]);
    expect([0, 1].map((r) => jitteredBackoff(3, () => r))).toEqual([4_000, 8_000]);
    expect(jitteredBackoff(40, () => 1)).toBe(600_000);
  });
});
