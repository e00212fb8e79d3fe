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

  it('what one instance’s windows follow is told to the other’s (an order change in parts, the outbox, a refresh, an import), never back', async () => {
    database = await createTestDatabase(testPostgresUrl!);
    const buses = [createEventBus(), createEventBus()];
    const errors: unknown[] = [];
    for (const [i, bus] of buses.entries()) {
      const o = await openPostgres({ url: database.url, max: 2 });
      opened.push(o);
      stops.push(await relayAcrossInstances(bus, createPostgresInstancesStore(o), `instance-${i}`, (e) => errors.push(e)));
    }
    const [here, there] = buses.map(recorder);
    // Too many for one broadcast (NOTIFY takes under 8,000 bytes): it goes in parts.
    const ids = Array.from({ length: 2_000 }, (_, i) => String(100_000 + i));
    const sent: AppEvent[] = [
      { type: 'outbox.state', companyId: 1, pending: 3, waitingForConnection: false, orderIds: ['7'] },
      { type: 'refresh.progress', companyId: 1, done: 2, total: 5 },
      { type: 'orders.notice', companyId: 1, kind: 'delivered', orderIds: ['7', '8'], clientNumbers: ['A-7', 'A-8'] },
      { type: 'import.progress', companyId: 1, importId: 4, status: 'creating', done: 10, total: 40 },
      { type: 'session.ended', companyId: 2, sessionId: 5 },
    ];
    for (const event of sent) buses[0].publish(event);
    buses[0].publish({ type: 'orders.changed', companyId: 1, orderIds: ids });
    await there.heard(sent.length + 4);
    // Each broadcast goes on a connection of the pool: they may arrive in any order.
    expect(there.events.filter((e) => e.type !== 'orders.changed')).toEqual(expect.arrayContaining(sent));
    const parts = there.events.filter((e) => e.type === 'orders.changed');
    expect(parts).toHaveLength(4);
    expect(parts.flatMap((e) => e.orderIds).sort()).toEqual(ids);
    // The sender hears only its own; the receiver sends nothing on (a round trip later, nothing more came).
    buses[1].publish({ type: 'drafts.changed', companyId: 1 });
    await here.heard(sent.length + 2);
    expect(here.events.map((e) => e.type).sort()).toEqual(['drafts.changed', 'import.progress', 'orders.changed', 'orders.notice', 'outbox.state', 'refresh.progress', 'session.ended']);
    expect(there.events).toHaveLength(sent.length + 5);
    expect(errors).toEqual([]);
  });

  it('points written in one instance make the other read its points version again at once', async () => {
    database = await createTestDatabase(testPostgresUrl!);
    const written = new Set<() => void>();
    let dropped = 0;
    let heard!: () => void;
    const noticed = new Promise<void>((resolve) => (heard = resolve));
    const writer = { onWritten: (listener: () => void) => (written.add(listener), () => written.delete(listener)), changedElsewhere: () => {} };
    const reader = { onWritten: () => () => {}, changedElsewhere: () => void (dropped++, heard()) };
    const connections = { onWritten: () => () => {}, changedElsewhere: () => void dropped++ };
    for (const [i, points] of [writer, reader].entries()) {
      const o = await openPostgres({ url: database.url, max: 2 });
      opened.push(o);
      stops.push(await relayAcrossInstances(createEventBus(), createPostgresInstancesStore(o), `instance-${i}`, () => {}, { points, connections }));
    }
    for (const listener of written) listener(); // a page of points stored in the first instance
    await noticed;
    expect(dropped).toBe(1);
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
