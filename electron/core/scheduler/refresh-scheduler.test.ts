import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import type { AppEvent } from '../events';
import { manualTimers, type ManualTimers } from './timers';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('scheduled status refresh', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  let timers: ManualTimers;
  let events: AppEvent[];
  beforeEach(async () => {
    // The app is built before its clock exists here, so its timers reach the manual ones through this bridge.
    env = await createTestApp({ timers: { set: (fn, ms) => timers.set(fn, ms) } });
    timers = manualTimers(env.clock);
    events = [];
    env.app.events.subscribe((e) => events.push(e));
  });
  afterEach(() => env.close());

  const scheduler = () => env.app.services.scheduler;
  const create = async (clientNumber: string) => (await env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber)))).orderId;
  const value = async (name: string, input: unknown = {}): Promise<any> => {
    const result = await env.app.dispatch(name, env.shop, input);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  /** Moves the clock and lets the due timers run their refresh to the end. */
  const advance = async (ms: number) => {
    env.clock.advance(ms);
    timers.fireDue();
    await scheduler().idle();
  };
  const runs = () => env.app.db.selectFrom('refresh_runs').selectAll().orderBy('id').execute();

  it('refreshes every interval of the setting, starting a minute after the app', async () => {
    const id = await create('SCH-1');
    await env.app.outbox.drain();
    await scheduler().start();
    expect(timers.nextAt()).toBe(env.clock.now() + minute);
    await advance(30 * 1000);
    expect(await runs()).toHaveLength(0);
    await advance(30 * 1000);
    expect(await runs()).toHaveLength(1);
    expect(timers.nextAt()).toBe(env.clock.now() + 30 * minute);

    env.clock.advance(6 * hour - 30 * minute); // time passes for the sandbox service
    await advance(30 * minute);
    expect(await runs()).toHaveLength(2);
    const order = await env.app.db.selectFrom('orders').select('status_key').where('id', '=', Number(id)).executeTakeFirstOrThrow();
    expect(order.status_key).not.toBe('uploaded');
    expect(events).toContainEqual({ type: 'refresh.progress', companyId: env.shop.companyId, done: 1, total: 1 });
  });

  it('follows a new interval at once and stops with the app', async () => {
    await scheduler().start();
    await advance(minute);
    await value('settings.update', { preferences: { refreshIntervalMinutes: 5 } });
    await scheduler().idle();
    expect(timers.nextAt()).toBe(env.clock.now() + 5 * minute);
    expect((await value('statuses.lastRefresh')).nextAt).not.toBeNull();
    await scheduler().stop();
    expect(timers.size).toBe(0);
  });

  it('reads the interval once, not on every run, and again only when the preferences change', async () => {
    const settings = env.app.services.settings;
    const preferences = settings.preferences.bind(settings);
    let reads = 0;
    settings.preferences = () => (reads++, preferences());
    await scheduler().start();
    expect(reads).toBe(1);
    for (let run = 1; run <= 3; run++) await advance(run === 1 ? minute : 30 * minute);
    expect(await runs()).toHaveLength(3);
    expect(reads).toBe(1);
    await value('settings.update', { preferences: { refreshIntervalMinutes: 5 } });
    await scheduler().idle();
    expect(reads).toBe(2);
    expect(timers.nextAt()).toBe(env.clock.now() + 5 * minute);
  });

  it('refresh now reports progress, the time of the refresh and notices of delivered orders', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) ids.push(await create(`NOW-${i}`));
    await env.app.outbox.drain();
    expect(await value('statuses.lastRefresh')).toMatchObject({ at: null, result: null, running: false });
    env.clock.advance(30 * day); // every sandbox shipment has reached its end by now
    events.length = 0;
    const result = await value('statuses.refreshNow');
    expect(result).toMatchObject({ checked: 3, changed: 3, failed: 0 });
    const progress = events.filter((e) => e.type === 'refresh.progress');
    expect(progress[0]).toEqual({ type: 'refresh.progress', companyId: env.shop.companyId, done: 0, total: 3 });
    expect(progress.at(-1)).toMatchObject({ done: 3, total: 3 });
    const notices = events.filter((e) => e.type === 'orders.notice');
    expect(notices.flatMap((n) => n.orderIds as string[]).sort()).toEqual([...ids].sort());
    for (const n of notices) {
      expect(n.companyId).toBe(env.shop.companyId);
      expect(['delivered', 'returned']).toContain(n.kind);
      expect((n.clientNumbers as string[]).every((c) => c.startsWith('NOW-'))).toBe(true);
    }
    const last = await value('statuses.lastRefresh');
    expect(last).toMatchObject({ trigger: 'manual', result: { checked: 3 }, error: null });
    expect(last.at).toEqual(expect.any(String));
  });

  it('a refresh asked for while one runs joins it instead of running twice', async () => {
    await create('JOIN-1');
    await env.app.outbox.drain();
    const [a, b] = await Promise.all([scheduler().refreshNow(), scheduler().refreshNow(env.shop.companyId)]);
    expect(a).toEqual(b);
    expect(await runs()).toHaveLength(1);
  });

  it('orders with no new status for the threshold are stuck', async () => {
    const stale = await create('STUCK-1');
    await env.app.outbox.drain();
    env.clock.advance(6 * day);
    await create('FRESH-1');
    const stuck = await value('orders.stuck');
    expect(stuck).toMatchObject({ thresholdDays: 5, total: 1, rows: [{ orderId: stale, clientNumber: 'STUCK-1', daysWithoutChange: 6 }] });
    expect((await value('orders.stuck', { days: 7 })).total).toBe(0);
    await value('settings.update', { preferences: { stuckThresholdDays: 3 } });
    expect((await value('orders.stuck')).thresholdDays).toBe(3);
  });

  it('the outbox view counts the company\'s jobs and says when the next attempt is', async () => {
    await create('OUT-1');
    await create('OUT-2');
    expect(await value('outbox.state')).toEqual({
      pending: 2, waitingForConnection: false, retrying: 0, nextAttemptAt: expect.any(String), lastError: null, lastErrorMessage: null,
    });
    await env.app.outbox.drain();
    expect(await value('outbox.state')).toMatchObject({ pending: 0, nextAttemptAt: null });
  });
});
