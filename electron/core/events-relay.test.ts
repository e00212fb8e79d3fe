import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, relayAcrossInstances, type AppEvent } from './events';
import { openPostgres, type OpenedPostgres } from './store/postgres';
import { createPostgresInstancesStore } from './store/instances/postgres';
import { createSqliteInstancesStore } from './store/instances/sqlite';
import { createTestDatabase, testPostgresUrl } from './store/test-engines';

/** Events heard on a bus, and a way to wait for the nth. */
function recorder(bus: ReturnType<typeof createEventBus>) {
  const events: AppEvent[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  bus.subscribe((event) => {
    events.push(event);
    for (const w of waiters.filter((w) => events.length >= w.n)) w.resolve();
  });
  return { events, heard: (n: number) => (events.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))) };
}

describe('events on SQLite', () => {
  it('stay in the app: nothing is broadcast, nothing comes in', async () => {
    const bus = createEventBus();
    const errors: unknown[] = [];
    const stop = await relayAcrossInstances(bus, createSqliteInstancesStore(), 'one', (e) => errors.push(e));
    const { events } = recorder(bus);
    bus.publish({ type: 'orders.changed', companyId: 1, orderIds: ['7'] });
    expect(events).toEqual([{ type: 'orders.changed', companyId: 1, orderIds: ['7'] }]);
    expect(errors).toEqual([]);
    await stop();
  });
});

describe.skipIf(!testPostgresUrl)('events across two instances on one PostgreSQL (skipped: SHIPDESK_TEST_POSTGRES is not set)', () => {
  let database: { url: string; drop(): Promise<void> };
  const opened: OpenedPostgres[] = [];
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    for (const o of opened.splice(0)) await o.close();
    await database?.drop();
  });

  it('an order changed in one instance is told to the other’s windows (its company and ids, in parts), never back, and no progress of its own', async () => {
    database = await createTestDatabase(testPostgresUrl!);
    const buses = [createEventBus(), createEventBus()];
    const errors: unknown[] = [];
    for (const [i, bus] of buses.entries()) {
      const o = await openPostgres({ url: database.url, max: 2 });
      opened.push(o);
      stops.push(await relayAcrossInstances(bus, createPostgresInstancesStore(o), `instance-${i}`, (e) => errors.push(e)));
    }
    const [here, there] = buses.map(recorder);
    const ids = Array.from({ length: 250 }, (_, i) => String(i + 1));
    buses[0].publish({ type: 'outbox.state', companyId: 1, pending: 3, waitingForConnection: false });
    buses[0].publish({ type: 'orders.changed', companyId: 1, orderIds: ids });
    buses[0].publish({ type: 'session.ended', companyId: 2, sessionId: 5 });
    await there.heard(3);
    // Each broadcast goes on a connection of the pool: they may arrive in any order.
    expect(there.events).toHaveLength(3);
    expect(there.events).toEqual(expect.arrayContaining([
      { type: 'orders.changed', companyId: 1, orderIds: ids.slice(0, 200) },
      { type: 'orders.changed', companyId: 1, orderIds: ids.slice(200) },
      { type: 'session.ended', companyId: 2, sessionId: 5 },
    ]));
    // The sender hears only its own three; the receiver sends nothing on (a round trip later, nothing more came).
    buses[1].publish({ type: 'drafts.changed', companyId: 1 });
    await here.heard(4);
    expect(here.events.map((e) => e.type).sort()).toEqual(['drafts.changed', 'orders.changed', 'outbox.state', 'session.ended']);
    expect(there.events).toHaveLength(4);
    expect(errors).toEqual([]);
  });

  it('leaves a broadcast that is no event of ours, saying so', async () => {
    database = await createTestDatabase(testPostgresUrl!);
    const o = await openPostgres({ url: database.url, max: 2 });
    opened.push(o);
    const bus = createEventBus();
    const { events } = recorder(bus);
    const errors: unknown[] = [];
    let noted!: () => void;
    const wasNoted = new Promise<void>((resolve) => (noted = resolve));
    stops.push(
      await relayAcrossInstances(bus, createPostgresInstancesStore(o), 'me', (e) => {
        errors.push(e);
        noted();
      }),
    );
    await o.pool.query("SELECT pg_notify('shipdesk_events', $1)", [JSON.stringify({ from: 'other', event: { type: 'orders.changed', companyId: 'x' } })]);
    await wasNoted;
    expect(events).toEqual([]);
    expect(String(errors[0])).toContain('no event of ours');
  });
});
