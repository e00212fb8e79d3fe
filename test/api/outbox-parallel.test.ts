import { manualClock } from '../../electron/core/clock';
import type { Connection } from '../../shared/contract/connections';
import { orderCreateSchema } from '../../shared/schemas/order';
import { createNodeHttpFetch } from '../fakes/cdek/node-fetch';
import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { seededFaults, startSlowFront, type SlowFront } from '../fakes/slow-front';
import { drainOutbox } from '../helpers/drain-outbox';
import { createTestApp } from '../helpers/test-app';

const SEED = Number(process.env.FAULT_SEED ?? 20_261_125);

/**
 * Registration in parallel against CDEK's fake behind a front that answers like a service far away: real
 * HTTP, real SQLite, the real outbox running several calls at once per connection. The hand-driven clock is
 * moved past each backoff, Retry-After and breaker pause; what the fake registered is counted at the fake.
 */
describe('registration in parallel', () => {
  let fake: FakeCdek;
  const fronts: SlowFront[] = [];
  let env: Awaited<ReturnType<typeof createTestApp>>;
  const http = createNodeHttpFetch();
  const clock = manualClock();
  afterEach(async () => {
    await env?.close();
    for (const front of fronts.splice(0)) await front.close();
    await fake?.close();
  });
  afterAll(() => http.close());

  /** `timeoutMs`: a call's budget, short where the fake hangs on purpose (a hang then costs little). */
  async function startApp(timeoutMs = 250) {
    env = await createTestApp({ clock, cdek: { fetch: http.fetch, timeoutMs, pollDelaysMs: [0, 0, 0], sleep: async () => {} } });
  }
  async function front(options: Omit<Parameters<typeof startSlowFront>[0], 'target'> = {}) {
    const started = await startSlowFront({ target: new URL(fake.url).origin, ...options });
    fronts.push(started);
    return started;
  }
  async function connect(name: string, through: SlowFront, parallelCalls?: number): Promise<Connection> {
    const created = await env.app.dispatch('connections.create', env.shop, { providerKey: 'cdek', name, baseUrl: `${through.origin}/v2`, credentials: FAKE_TEST_ACCOUNT, settings: parallelCalls ? { parallelCalls } : {} });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    return created.value as Connection;
  }
  const create = (clientNumber: string, connectionId?: number) =>
    env.app.services.orders.create(env.shop, orderCreateSchema.parse(cdekOrder(clientNumber, (o) => (o.order.providerConnectId = connectionId))));
  const statuses = async (prefix: string) =>
    (await env.app.db.selectFrom('orders').select(['client_number', 'status_key']).where('client_number', 'like', `${prefix}%`).execute()).map((o) => o.status_key);

  it('with 30 % of calls failing (503 and 429 with Retry-After, timeouts, lost replies), 300 orders are each registered exactly once and none is stuck', { timeout: 180_000 }, async () => {
    fake = await startFakeCdek({ now: clock.now, validation: 'next-get', faults: { rate: 0.12, seed: SEED, kinds: ['503', 'hang', 'hang-after'] } });
    const far = await front({
      latencyMs: 2,
      fault: seededFaults(0.2, [{ kind: '503', retryAfterSeconds: 1 }, { kind: '429', retryAfterSeconds: 2 }], SEED),
    });
    await startApp();
    await connect('Основной', far);
    for (let i = 1; i <= 300; i++) await create(`PF-${String(i).padStart(3, '0')}`);

    await drainOutbox(env.app, clock);

    expect(await env.app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
    expect((await statuses('PF-')).filter((s) => s !== 'uploaded')).toEqual([]);
    const counts = fake.registrationCounts();
    expect(counts.size).toBe(300);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(fake.stats.duplicateRefusals).toBe(0);
    // Every kind of failure really happened.
    expect(far.stats.faults['503']).toBeGreaterThan(0);
    expect(far.stats.faults['429']).toBeGreaterThan(0);
    expect(fake.stats.faults.hang).toBeGreaterThan(0);
    expect(fake.stats.faults['hang-after']).toBeGreaterThan(0);
    const failed = Object.values(far.stats.faults).reduce((a, b) => a + b, 0) + Object.values(fake.stats.faults).reduce((a, b) => a + b, 0);
    expect(failed / far.stats.calls).toBeGreaterThan(0.25);
  });

  it('a connection\'s "parallel calls" bounds the calls out at once', { timeout: 60_000 }, async () => {
    fake = await startFakeCdek({ now: clock.now, validation: 'next-get' });
    const slow = await front({ latencyMs: 40 });
    await startApp();
    await connect('Три за раз', slow, 3);
    for (let i = 1; i <= 24; i++) await create(`PC-${i}`);
    await env.app.outbox.drain();
    expect((await statuses('PC-')).filter((s) => s !== 'uploaded')).toEqual([]);
    expect(slow.stats.maxInFlight).toBe(3);
  });

  it('an order CDEK is still checking holds no place: with the adapter really waiting between its calls, the calls out stay within "parallel calls"', { timeout: 60_000 }, async () => {
    fake = await startFakeCdek({ now: clock.now, validation: 'next-get' });
    const slow = await front({ latencyMs: 20 });
    // The adapter's own waits (no sleep injected): each order is sent, waited on, then read.
    env = await createTestApp({ clock, cdek: { fetch: http.fetch, timeoutMs: 5_000, pollDelaysMs: [30, 30, 30] } });
    await connect('Три за раз', slow, 3);
    for (let i = 1; i <= 24; i++) await create(`PW-${i}`);
    await drainOutbox(env.app, clock);
    expect((await statuses('PW-')).filter((s) => s !== 'uploaded')).toEqual([]);
    expect([...fake.registrationCounts().values()].filter((n) => n !== 1)).toEqual([]);
    expect(fake.registrationCounts().size).toBe(24);
    expect(slow.stats.maxInFlight).toBe(3);
  });

  it('a dead service opens its breaker: its orders wait without using up their attempts while another service\'s orders go through', { timeout: 120_000 }, async () => {
    fake = await startFakeCdek({ now: clock.now, validation: 'next-get' });
    const deadFront = await front();
    const liveFront = await front();
    deadFront.setFault(() => ({ kind: '503' }));
    // Nothing hangs here: the dead service answers 503 at once. A live call that outlasted a short budget on a
    // loaded machine (PostgreSQL's round trips share the event loop) would fail and wait a backoff, so the live orders
    // would not all go out in one pass: the budget is a real one.
    await startApp(5_000);
    const dead = await connect('Склад 1', deadFront);
    const live = await connect('Склад 2', liveFront);
    for (let i = 1; i <= 40; i++) {
      await create(`DEAD-${i}`, dead.id);
      await create(`LIVE-${i}`, live.id);
    }

    await env.app.outbox.drain();
    // The live account's orders all went out in that one pass, while the dead one failed.
    expect((await statuses('LIVE-')).filter((s) => s !== 'uploaded')).toEqual([]);
    expect((await statuses('DEAD-')).filter((s) => s !== 'uploading')).toEqual([]);
    // The breaker opened after 20 failures in a row (plus the calls already out): most orders were never tried.
    const tried = async () => (await env.app.db.selectFrom('outbox').select(['attempts', 'failed_attempts']).execute()).filter((j) => j.attempts > 0);
    const triedWhenOpened = (await tried()).length;
    expect(triedWhenOpened).toBeGreaterThanOrEqual(20);
    expect(triedWhenOpened).toBeLessThan(30);

    // Still dead: after the pause one order is tried, and the orders keep waiting.
    const view = await env.app.dispatch('outbox.state', env.shop, {});
    expect(view).toMatchObject({ ok: true, value: { pending: 40, waitingForConnection: true } });
    const next = await env.app.db.selectFrom('outbox').select((eb) => eb.fn.min('next_attempt_at').as('at')).executeTakeFirstOrThrow();
    expect(Number(next.at)).toBeGreaterThanOrEqual(clock.now() + 30_000);
    const callsBefore = deadFront.stats.calls;
    clock.set(Number(next.at));
    await env.app.outbox.drain();
    expect(deadFront.stats.calls).toBe(callsBefore + 1);
    const jobs = await tried();
    expect(jobs.length).toBeLessThanOrEqual(triedWhenOpened + 1);
    expect(Math.max(...jobs.map((j) => j.failed_attempts))).toBe(1);

    // It comes back: the next trial closes the breaker and every order goes out, once.
    deadFront.setFault(() => null);
    await drainOutbox(env.app, clock, 20);
    expect((await statuses('DEAD-')).filter((s) => s !== 'uploaded')).toEqual([]);
    const counts = fake.registrationCounts();
    expect(counts.size).toBe(80);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  });

  it('"parallel calls" is a number from 1 to 64 that every kind of connection offers and shows', async () => {
    fake = await startFakeCdek({ now: clock.now });
    const direct = await front();
    await startApp();
    const kinds = await env.app.dispatch('connections.kinds', env.shop, {});
    if (!kinds.ok) throw new Error('no kinds');
    for (const kind of kinds.value as { fields: { name: string; min?: number; max?: number }[] }[]) {
      expect(kind.fields).toContainEqual(expect.objectContaining({ name: 'parallelCalls', type: 'number', min: 1, max: 64 }));
    }
    for (const bad of [0, 65, 'many']) {
      const refused = await env.app.dispatch('connections.create', env.shop, { providerKey: 'cdek', name: 'X', baseUrl: `${direct.origin}/v2`, credentials: FAKE_TEST_ACCOUNT, settings: { parallelCalls: bad } });
      expect(refused).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'settings.parallelCalls' }] } });
    }
    const made = await connect('Основной', direct, 16);
    expect(made.settings).toEqual({ parallelCalls: 16 });
    expect(env.app.services.connections.laneOf('cdek', made.id)).toEqual({ lane: `connection:${made.id}`, parallelCalls: 16 });

    // Emptied in the form: back to the default, which the outbox then uses.
    const cleared = await env.app.dispatch('connections.update', env.shop, { id: made.id, settings: { parallelCalls: null } });
    expect(cleared).toMatchObject({ ok: true, value: { settings: {} } });
    expect(env.app.services.connections.laneOf('cdek', made.id)?.parallelCalls).toBeUndefined();
    const unknown = await env.app.dispatch('connections.update', env.shop, { id: made.id, settings: { copies: null } });
    expect(unknown).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'settings.copies', message: 'is not a setting of CDEK' }] } });
  });
});
