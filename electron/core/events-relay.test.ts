import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, packBroadcasts, relayAcrossInstances, type AppEvent } from './events';
import { openPostgres, type OpenedPostgres } from './store/postgres';
import { createPostgresInstancesStore } from './store/instances/postgres';
import { BROADCAST_LIMIT } from './store/instances/instances-store';
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

describe('broadcasts packed', () => {
  it('hold what one turn published, in its order, each within what a NOTIFY takes', () => {
    const events: AppEvent[] = Array.from({ length: 600 }, (_, i) => ({ type: 'orders.changed', companyId: 1 + (i % 3), orderIds: [String(i)] }));
    const messages = packBroadcasts([...events.map((event) => ({ event })), { changed: 'points' }], 'instance-0');
    expect(messages.length).toBeGreaterThan(1); // 600 events take more than one
    expect(messages.length).toBeLessThan(10);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThanOrEqual(BROADCAST_LIMIT);
    const items = messages.flatMap((m) => (JSON.parse(m) as { from: string; items: unknown[] }).items);
    expect(items).toEqual([...events.map((event) => ({ event })), { changed: 'points' }]);
  });

  it('split an event naming more orders than one broadcast takes, keeping every id once and in order', () => {
    const ids = Array.from({ length: 3_000 }, (_, i) => String(5_000_000 + i));
    const messages = packBroadcasts([{ event: { type: 'refresh.progress', companyId: 1, done: 1, total: 2 } }, { event: { type: 'orders.changed', companyId: 1, orderIds: ids } }], 'instance-0');
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThanOrEqual(BROADCAST_LIMIT);
    const items = messages.flatMap((m) => (JSON.parse(m) as { items: { event: AppEvent }[] }).items.map((i) => i.event));
    expect(items[0]).toEqual({ type: 'refresh.progress', companyId: 1, done: 1, total: 2 });
    expect(items.slice(1).flatMap((e) => (e.type === 'orders.changed' ? (e.orderIds ?? []) : []))).toEqual(ids);
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

  it('what one instance’s windows follow is told to the other’s in its order, a turn’s events together (an order change in parts, the outbox, a refresh, an import), never back', async () => {
    database = await createTestDatabase(testPostgresUrl!);
    const buses = [createEventBus(), createEventBus()];
    const errors: unknown[] = [];
    const notifies = [0, 0];
    for (const [i, bus] of buses.entries()) {
      const o = await openPostgres({ url: database.url, max: 2 });
      opened.push(o);
      const store = createPostgresInstancesStore(o);
      const counted = { listen: store.listen, broadcast: (message: string) => (notifies[i]++, store.broadcast(message)) };
      stops.push(await relayAcrossInstances(bus, counted, `instance-${i}`, (e) => errors.push(e)));
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
    buses[0].publish({ type: 'drafts.changed', companyId: 3 });
    await there.heard(sent.length + 5);
    // In the order published: the small events, the big change's four parts, the last event.
    expect(there.events.slice(0, sent.length)).toEqual(sent);
    const parts = there.events.slice(sent.length, sent.length + 4);
    expect(parts.map((e) => e.type)).toEqual(Array(4).fill('orders.changed'));
    expect(parts.flatMap((e) => (e.type === 'orders.changed' ? (e.orderIds ?? []) : []))).toEqual(ids);
    expect(there.events[sent.length + 4]).toEqual({ type: 'drafts.changed', companyId: 3 });
    // Ten events (four of them parts of one) in four NOTIFYs: the small ones ride with the parts.
    expect(notifies[0]).toBe(4);
    // The sender hears only its own; the receiver sends nothing on (a round trip later, nothing more came).
    buses[1].publish({ type: 'drafts.changed', companyId: 1 });
    await here.heard(sent.length + 3);
    expect(here.events.map((e) => e.type)).toEqual([...sent.map((e) => e.type), 'orders.changed', 'drafts.changed', 'drafts.changed']);
    expect(there.events).toHaveLength(sent.length + 6);
    expect(notifies[1]).toBe(1);
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
    await o.pool.query("SELECT pg_notify('shipdesk_events', $1)", [JSON.stringify({ from: 'other', items: [{ event: { type: 'orders.changed', companyId: 'x' } }] })]);
    await wasNoted;
    expect(events).toEqual([]);
    expect(String(errors[0])).toContain('no event of ours');
  });
});
