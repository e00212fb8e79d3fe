import { PDFDocument } from 'pdf-lib';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserMode } from '../../electron/browser-mode';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { localId } from '../../electron/core/providers/upstream/mapping';
import type { Connection, ConnectionTestResult } from '../../shared/contract/connections';
import type { Result } from '../../shared/result';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { orderPayload } from '../helpers/payloads';
import { pointOf } from '../helpers/sandbox-orders';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { ownerOf } from '../../electron/core/auth/caller';

/**
 * The upstream-aggregator adapter against a real ShipDesk core acting as the upstream (browser mode: its
 * HTTP interface, its database, its sandbox services, its outbox running), reached through a TCP proxy
 * that can drop a reply or refuse connections, from a second ShipDesk (the test server) with an upstream
 * connection. Both run on hand-driven clocks; the upstream's statuses move when its clock does and its
 * own status refresh runs.
 */

const UP_TOKEN = 'upstream-company-token-0001';
const HOUR = 3_600_000;

/** A TCP proxy in front of the upstream: `down` refuses every connection, `dropReply` loses the answer to matching requests. */
async function startProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let down = false;
  let drop: ((requestLine: string) => boolean) | null = null;
  let dropped = 0;
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const target = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(target);
    let requestLine = '';
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      const first = text.slice(0, 200).split('\r\n')[0];
      if (/^(GET|POST|PUT|DELETE) /.test(first)) {
        requestLine = first;
        // As a reverse proxy does: the upstream answers only to its own Host (DNS-rebinding guard).
        target.write(Buffer.from(text.replace(/\r\nhost: [^\r]*/i, `\r\nHost: 127.0.0.1:${targetPort}`), 'latin1'));
      } else target.write(chunk);
    });
    target.on('data', (chunk) => {
      if (drop?.(requestLine)) {
        // The upstream has done the work and answered; the answer never arrives.
        drop = null;
        dropped++;
        client.destroy();
        target.destroy();
        return;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      target.destroy();
      sockets.delete(client);
      sockets.delete(target);
    };
    client.on('close', close).on('error', close);
    target.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    /** The upstream cannot be reached (connections refused) until `up()`. */
    down() {
      down = true;
      cut();
    },
    up() {
      down = false;
    },
    /** The answer to the next request whose first line matches is lost after the upstream handled it. */
    dropNextReply(match: RegExp) {
      drop = (line) => match.test(line);
    },
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

interface Pair {
  upstream: Awaited<ReturnType<typeof startBrowserMode>>;
  upClock: ReturnType<typeof manualClock>;
  proxy: Awaited<ReturnType<typeof startProxy>>;
  env: TestServer;
  calls: string[];
  connection: Connection;
  /** A call to the upstream's interface directly, as its own client company. */
  remote(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  key(remoteKey: string): string;
  close(): Promise<void>;
}

/**
 * The upstream in browser mode and this ShipDesk with a connection to it. By default the upstream's
 * outbox runs and the adapter's waits let it work; `slowUpstream` stops both, so the upstream does not
 * transfer orders until the test drains its outbox.
 */
async function startPair(options: { slowUpstream?: boolean } = {}): Promise<Pair> {
  const upDir = mkdtempSync(join(tmpdir(), 'shipdesk-upstream-'));
  const upClock = manualClock();
  const upstream = await startBrowserMode(
    { port: 0, dataDir: upDir, tokens: [UP_TOKEN] },
    { clock: upClock, log: silentLogger, ...(options.slowUpstream ? { startWorkers: false } : {}) },
  );
  const proxy = await startProxy(upstream.port);
  const calls: string[] = [];
  const env = await startTestServer({
    upstream: {
      timeoutMs: 5_000,
      pollDelaysMs: [0, 0, 0, 0],
      confirmDelaysMs: [0],
      // While the adapter waits for the upstream, the upstream's outbox does its work.
      sleep: async () => {
        if (!options.slowUpstream) await upstream.app.outbox.drain();
      },
      onCall: (c) => calls.push(`${c.method} ${c.path.replace(/\/\d+(?=\/|$)/g, '/{id}')}`),
    },
  });
  const connection = value<Connection>(
    await env.app.dispatch('connections.create', env.shop, { providerKey: 'upstream', name: 'Склад-2', baseUrl: `${proxy.url}/v1/`, credentials: { token: UP_TOKEN } }),
  );
  const remote = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(upstream.base + path, {
      method,
      headers: { Authorization: UP_TOKEN, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  return {
    upstream,
    upClock,
    proxy,
    env,
    calls,
    connection,
    remote,
    key: (remoteKey) => `upstream:${connection.id}:${remoteKey}`,
    async close() {
      await env.close();
      await proxy.close();
      await upstream.close();
      rmSync(upDir, { recursive: true, force: true });
    },
  };
}

/** The sandbox express order (door to door, COD) through the upstream connection. */
const expressOrder = (p: Pair, clientNumber: string, patch: (o: OrderCreateInput) => void = () => {}) =>
  orderPayload(clientNumber, (o) => {
    o.order.providerKey = p.key('sandbox-express');
    o.order.tariffId = localId(p.connection.id, 103)!;
    patch(o);
  });

describe('upstream aggregator: its services are ours', () => {
  let p: Pair;
  beforeEach(async () => {
    p = await startPair();
  });
  afterEach(() => p.close());

  it('connecting an upstream lists its services readably in /v1/lists/providers, with their tariffs and additional services under our ids', async () => {
    expect(p.connection).toMatchObject({ providerKey: 'upstream', name: 'Склад-2', clientIdHint: '…0001', credentialsStored: true, credentialsReadable: true });
    expect(JSON.stringify(p.connection)).not.toContain(UP_TOKEN);
    const stored = await p.env.app.db.selectFrom('provider_connections').select('credentials').executeTakeFirstOrThrow();
    expect(stored.credentials).not.toContain(UP_TOKEN);

    const { rows } = (await p.env.call('GET', `/v1/lists/providers?filter=${encodeURIComponent(`key%upstream:${p.connection.id}:`)}`)).json;
    const theirs = (await p.remote('GET', '/v1/lists/providers')).json.rows as { key: string; name: string; capabilities: unknown; test: boolean }[];
    expect(rows).toEqual(
      theirs.map((t) => ({
        key: p.key(t.key),
        name: `${t.name} — через «Склад-2»`,
        description: expect.stringContaining(`«${t.key}»`),
        test: t.test,
        capabilities: t.capabilities,
      })),
    );
    expect(rows.map((r: { key: string }) => r.key)).toEqual(['upstream:1:sandbox-express', 'upstream:1:sandbox-post', 'upstream:1:sandbox-lockers']);

    // Filtered by our key (colons and all), tariffs carry our ids; the upstream's ids are recoverable from them.
    const tariffs = (await p.env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent(`providerKey=${p.key('sandbox-express')}`)}`)).json.rows;
    const theirTariffs = (await p.remote('GET', `/v1/lists/tariffs?filter=providerKey=sandbox-express`)).json.rows;
    expect(tariffs).toEqual(theirTariffs.map((t: { id: number }) => ({ ...t, id: localId(1, t.id), providerKey: p.key('sandbox-express') })));

    const services = (await p.env.call('GET', `/v1/lists/services?filter=${encodeURIComponent(`providerKey=${p.key('sandbox-express')}`)}`)).json;
    const theirServices = (await p.remote('GET', '/v1/lists/services?filter=providerKey=sandbox-express')).json;
    expect(services.length).toBeGreaterThan(0);
    expect(services).toEqual(theirServices.map((s: object) => ({ ...s, providerKey: p.key('sandbox-express') })));

    const test = value<ConnectionTestResult>(await p.env.app.dispatch('connections.test', p.env.shop, { id: p.connection.id }));
    expect(test).toMatchObject({ ok: true, message: expect.stringContaining('3 delivery services'), tokenExpiresIn: null });
  });

  it('a sync copies the upstream\'s pickup points, searchable by city under our ids', async () => {
    const result = await p.env.app.services.connections.sync(p.connection.id);
    const filter = (key: string) => encodeURIComponent(`providerKey=${key};city=Санкт-Петербург`);
    const theirs = (await p.remote('GET', `/v1/lists/points?limit=1000&filter=${filter('sandbox-post')}`)).json;
    const ours = (await p.env.call('GET', `/v1/lists/points?limit=1000&filter=${filter(p.key('sandbox-post'))}`)).json;
    expect(ours.meta.total).toBe(theirs.meta.total);
    expect(ours.meta.total).toBeGreaterThan(0);
    expect(ours.rows[0]).toEqual({ ...theirs.rows[0], id: localId(1, theirs.rows[0].id), providerKey: p.key('sandbox-post') });
    const all = (await p.remote('GET', '/v1/lists/points?limit=1')).json.meta.total;
    expect(result).toMatchObject({ services: 3, points: all, skipped: 0 });

    // A second sync keeps every id and adds nothing.
    await p.env.app.services.connections.sync(p.connection.id);
    expect((await p.env.call('GET', `/v1/lists/points?limit=1&filter=${encodeURIComponent('providerKey%upstream:1:')}`)).json.meta.total).toBe(all);
  });
});

describe('upstream aggregator: orders pass through', () => {
  let p: Pair;
  beforeEach(async () => {
    p = await startPair();
  });
  afterEach(() => p.close());

  const createHere = async (payload: OrderCreateInput) => {
    const res = await p.env.call('POST', '/v1/orders', { body: payload });
    expect(res.status).toBe(200);
    return res.json.orderId as string;
  };
  const orderHere = async (orderId: string) => (await p.env.call('GET', `/v1/orders/${orderId}`)).json.order;
  const historyHere = async (orderId: string) => (await p.env.call('GET', `/v1/orders/${orderId}/statusHistory`)).json.rows as { key: string; description: string; errorCode: string }[];
  const upstreamOrders = (clientNumber: string) =>
    p.upstream.app.db.selectFrom('orders').select(['id', 'state', 'status_key']).where('client_number', '=', clientNumber).execute();
  const refreshUpstream = async () => value(await p.upstream.app.dispatch('statuses.refresh', ownerOf((await p.upstream.app.services.companies.byToken(UP_TOKEN))!.companyId), {}));

  it('an order created here is registered at the upstream\'s sandbox service, with its numbers here', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-1'));
    await p.env.app.outbox.drain();
    const here = await orderHere(orderId);
    expect(here).toMatchObject({ statusKey: 'uploaded', providerKey: p.key('sandbox-express'), providerNumber: expect.stringMatching(/^SBE\d+$/), barcode: expect.stringMatching(/^\d+$/) });

    const there = (await p.remote('GET', `/v1/orders/${here.additionalProviderNumber}`)).json;
    expect(there.order).toMatchObject({ clientNumber: 'UP-1', providerKey: 'sandbox-express', tariffId: 103, providerNumber: here.providerNumber, statusKey: 'uploaded' });
    expect(there.order.providerConnectId).toBeUndefined();
    expect(there.cost).toEqual({ assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 });
    expect(p.calls.filter((c) => c === 'POST /orders')).toHaveLength(1);
  });

  it('statuses flow back as the upstream\'s clock moves and it refreshes; an unchanged order costs one bulk call', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-2'));
    await p.env.app.outbox.drain();
    const remoteId = (await orderHere(orderId)).additionalProviderNumber;

    p.upClock.advance(200 * HOUR);
    await refreshUpstream();
    const refresh = await p.env.app.services.statusRefresh.refresh();
    expect(refresh).toMatchObject({ checked: 1, changed: 1, failed: 0 });

    const theirs = ((await p.remote('GET', `/v1/orders/${remoteId}/statusHistory`)).json.rows as { key: string }[]).map((r) => r.key).filter((k) => k !== 'uploading');
    const ours = (await historyHere(orderId)).map((r) => r.key).filter((k) => k !== 'uploading');
    expect(ours).toEqual(theirs);
    expect(ours.at(-1)).toBe('uploaded');
    expect(['delivered', 'returned', 'partialReturn']).toContain(ours[0]);

    p.calls.length = 0;
    const again = await p.env.app.services.statusRefresh.refresh();
    expect(again).toMatchObject({ changed: 0, statuses: 0 });
  });

  it('statuses reached between two looks are all recorded, once each', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-3'));
    await p.env.app.outbox.drain();
    p.upClock.advance(6 * HOUR); // onPointIn
    await refreshUpstream();
    await p.env.app.services.statusRefresh.refresh();
    expect((await historyHere(orderId))[0].key).toBe('onPointIn');

    p.upClock.advance(36 * HOUR); // onWay, then onPointOut
    await refreshUpstream();
    p.calls.length = 0;
    await p.env.app.services.statusRefresh.refresh();
    expect(p.calls).toEqual(['POST /orders/statuses', 'GET /v1/orders/{id}/statusHistory']);
    expect((await historyHere(orderId)).map((r) => r.key)).toEqual(['onPointOut', 'onWay', 'onPointIn', 'uploaded', 'uploading']);

    p.calls.length = 0;
    await p.env.app.services.statusRefresh.refresh();
    expect(p.calls).toEqual(['POST /orders/statuses']);
  });

  it('a pickup-point order names our point id here and the upstream\'s id there', async () => {
    await p.env.app.services.connections.sync(p.connection.id);
    const point = await pointOf(p.env.app.db, p.key('sandbox-post'), { city: 'Санкт-Петербург', cod: 1 });
    const orderId = await createHere(
      orderPayload('UP-PT', (o) => {
        Object.assign(o.order, { providerKey: p.key('sandbox-post'), tariffId: localId(1, 201), deliveryType: 2, pickupType: 2, pointOutId: point.id });
      }),
    );
    await p.env.app.outbox.drain();
    const here = await orderHere(orderId);
    expect(here).toMatchObject({ statusKey: 'uploaded', pointOutId: point.id, providerNumber: expect.stringMatching(/^SBP/) });
    const there = (await p.remote('GET', `/v1/orders/${here.additionalProviderNumber}`)).json.order;
    expect(there).toMatchObject({ pointOutId: point.id - localId(1, 0)!, tariffId: 201, providerKey: 'sandbox-post' });

    // An id of the upstream's range that is not its point is refused here, before anything is sent.
    const bad = await p.env.call('POST', '/v1/orders', {
      body: orderPayload('UP-PT-2', (o) => Object.assign(o.order, { providerKey: p.key('sandbox-post'), tariffId: localId(1, 201), deliveryType: 2, pickupType: 2, pointOutId: localId(1, 999_999) })),
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: '040002', errors: [expect.objectContaining({ field: 'order.pointOutId' })] });
  });

  it('a courier call passes through with the upstream\'s order ids; its refusal and its cancel come back here', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-C'));
    await p.env.app.outbox.drain();
    const remoteId = (await orderHere(orderId)).additionalProviderNumber;
    const body = {
      providerKey: p.key('sandbox-express'), date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 1500,
      orderIds: [orderId], city: 'Москва', street: 'ул. Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', comment: 'Въезд со двора',
    };
    const accepted = await p.env.call('POST', '/v1/courierCall', { body });
    expect(accepted.json).toMatchObject({ providerNumber: expect.stringMatching(/^SBEC20260302\d{6}$/), additionalProviderNumber: expect.stringMatching(/^\d+$/), error: null });
    const there = await p.upstream.app.db.selectFrom('courier_calls').selectAll().where('id', '=', Number(accepted.json.additionalProviderNumber)).executeTakeFirstOrThrow();
    expect(there).toMatchObject({ provider_key: 'sandbox-express', state: 'accepted', provider_number: accepted.json.providerNumber, order_ids: JSON.stringify([remoteId]) });
    expect(JSON.parse(there.request)).toMatchObject({ city: 'Москва', contactName: 'Иван Петров', comment: 'Въезд со двора' });

    expect((await p.env.call('POST', `/v1/courierCall/${accepted.json.id}/cancel`)).status).toBe(200);
    expect((await p.upstream.app.db.selectFrom('courier_calls').select('state').where('id', '=', there.id).executeTakeFirstOrThrow()).state).toBe('canceled');
    expect((await p.env.call('POST', `/v1/courierCall/${accepted.json.id}/cancel`)).json).toMatchObject({ code: '040081' });

    const sunday = await p.env.call('POST', '/v1/courierCall', { body: { ...body, orderIds: [], date: '2026-03-08' } });
    expect(sunday.json).toMatchObject({ providerNumber: null, error: expect.stringContaining('couriers do not come on Sundays') });
    // The upstream's services that take no calls take none here either.
    const post = await p.env.call('POST', '/v1/courierCall', { body: { ...body, orderIds: [], providerKey: p.key('sandbox-post') } });
    expect(post.json).toMatchObject({ code: '040002', errors: [{ field: 'providerKey', message: `${p.key('sandbox-post')} does not take courier calls` }] });
  });

  it('labels and the handover act come from the upstream (its POST /orders/labels and /orders/waybills), one file each', async () => {
    const a = await createHere(expressOrder(p, 'UP-L1'));
    const b = await createHere(expressOrder(p, 'UP-L2'));
    await p.env.app.outbox.drain();
    p.calls.length = 0;

    const labels = await p.env.call('POST', '/v1/orders/labels', { body: { orderIds: [Number(a), Number(b)], format: 'pdf' } });
    expect(labels.json).toMatchObject({ url: expect.any(String), failedOrders: [] });
    const pdf = await fetch(labels.json.url);
    const document = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(document.getPageCount()).toBe(2); // one 100×150 mm label per order, drawn by the upstream
    expect(Math.round(document.getPage(0).getWidth())).toBe(283);
    expect(p.calls.filter((c) => c.startsWith('POST /orders/labels') || c.startsWith('GET /v1/files/'))).toEqual(['POST /orders/labels', expect.stringMatching(/^GET \/v1\/files\//)]);

    p.calls.length = 0;
    const acts = await p.env.call('POST', '/v1/orders/waybills', { body: { orderIds: [Number(a), Number(b)] } });
    expect(acts.json).toMatchObject({ waybillItems: [{ providerKey: p.key('sandbox-express'), orderIds: [Number(a), Number(b)] }], failedOrders: [] });
    expect((await fetch(acts.json.waybillItems[0].file)).headers.get('content-type')).toContain('application/pdf');
    expect(p.calls).toContain('POST /orders/waybills');
    // The upstream made the act: its handover of these orders is numbered there.
    expect(p.calls.filter((c) => c.startsWith('GET /v1/files/'))).toHaveLength(1);

    // An order the upstream cannot print (canceled there) leaves the run out here with the upstream's words.
    await p.upstream.app.db.updateTable('orders').set({ state: 'canceled' }).where('client_number', '=', 'UP-L2').execute();
    const refused = await p.env.call('POST', '/v1/orders/labels', { body: { orderIds: [Number(b)], format: 'pdf' } });
    expect(refused.json).toMatchObject({ url: null, failedOrders: [{ orderId: Number(b), message: expect.stringMatching(/refused: the upstream did not make the labels .*canceled/) }] });
  });

  it('update and cancel pass through to a service that does both; a second cancel is 040081', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-U'));
    await p.env.app.outbox.drain();
    const remoteId = (await orderHere(orderId)).additionalProviderNumber;

    const put = await p.env.call('PUT', `/v1/orders/${orderId}`, { body: expressOrder(p, 'UP-U', (o) => (o.recipient.contactName = 'Анна Петровна Смирнова')) });
    expect(put.json).toMatchObject({ message: 'ok' });
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploaded');
    const there = (await p.remote('GET', `/v1/orders/${remoteId}`)).json;
    expect(there.recipient.contactName).toBe('Анна Петровна Смирнова');
    expect(there.order.statusKey).toBe('uploaded');
    expect((await historyHere(orderId))[0]).toMatchObject({ key: 'uploaded', description: 'Changes accepted by the delivery service' });

    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    await p.env.app.outbox.drain();
    expect((await p.remote('GET', `/v1/orders/${remoteId}/status`)).json.status.key).toBe('deliveryCanceled');
    expect(await upstreamOrders('UP-U')).toEqual([expect.objectContaining({ state: 'canceled' })]);
    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).json).toMatchObject({ code: '040081' });

    // The clientNumber is free again on both sides: the new order goes out once the cancel is through.
    const again = await createHere(expressOrder(p, 'UP-U'));
    await p.env.app.outbox.drain();
    expect((await orderHere(again)).statusKey).toBe('uploaded');
    expect((await upstreamOrders('UP-U')).map((o) => o.state)).toEqual(['canceled', 'active']);
  });

  it('a service without update and cancel is refused here (040306) and its order deleted at the upstream', async () => {
    await p.env.app.services.connections.sync(p.connection.id);
    const point = await pointOf(p.env.app.db, p.key('sandbox-post'), { city: 'Санкт-Петербург', cod: 1 });
    const payload = orderPayload('UP-D', (o) =>
      Object.assign(o.order, { providerKey: p.key('sandbox-post'), tariffId: localId(1, 201), deliveryType: 2, pickupType: 2, pointOutId: point.id }),
    );
    const orderId = await createHere(payload);
    await p.env.app.outbox.drain();
    const remoteId = (await orderHere(orderId)).additionalProviderNumber;

    expect((await p.env.call('PUT', `/v1/orders/${orderId}`, { body: payload })).json).toMatchObject({ code: '040306' });
    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).json).toMatchObject({ code: '040306' });
    expect((await p.env.call('DELETE', `/v1/orders/${orderId}`)).status).toBe(200);
    await p.env.app.outbox.drain();
    expect((await p.remote('GET', `/v1/orders/${remoteId}`)).status).toBe(404);
    expect(await upstreamOrders('UP-D')).toEqual([expect.objectContaining({ state: 'deleted' })]);
    const books = await p.upstream.app.db.selectFrom('sandbox_shipments').select('removed_at').where('client_number', '=', 'UP-D').execute();
    expect(books).toEqual([{ removed_at: expect.any(Number) }]);
  });

  it('a cancel the upstream\'s delivery service refuses comes back here as a problem, the order kept', async () => {
    const orderId = await createHere(expressOrder(p, 'UP-LATE'));
    await p.env.app.outbox.drain();
    // The parcel is handed over at the sandbox service, but the upstream has not refreshed its statuses yet.
    p.upClock.advance(6 * HOUR);
    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    await p.env.app.outbox.drain();
    const history = await historyHere(orderId);
    expect(history[0]).toMatchObject({ key: 'problem', errorCode: '200', description: expect.stringContaining('handed over') });
    expect((await orderHere(orderId)).statusKey).toBe('problem');
  });

  it('the upstream\'s delivery service refuses the order: uploadingError here with its description; corrected, it goes out', async () => {
    const payload = expressOrder(p, 'UP-ERR', (o) => (o.recipient.city = 'Владивосток'));
    const orderId = await createHere(payload);
    await p.env.app.outbox.drain();
    const [last] = await historyHere(orderId);
    expect(last).toMatchObject({ key: 'uploadingError', errorCode: '200', description: expect.stringContaining('does not deliver to the door in Владивосток') });
    // The failed order holds nothing at the upstream: it is gone there, its clientNumber free.
    expect(await upstreamOrders('UP-ERR')).toEqual([expect.objectContaining({ state: 'deleted' })]);

    const fixed = await p.env.call('PUT', `/v1/orders/${orderId}`, { body: expressOrder(p, 'UP-ERR', (o) => (o.recipient.city = 'Москва')) });
    expect(fixed.json).toMatchObject({ message: 'ok' });
    await p.env.app.outbox.drain();
    expect(await orderHere(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SBE/) });
    expect((await upstreamOrders('UP-ERR')).map((o) => o.state)).toEqual(['deleted', 'active']);
  });

  it('a clientNumber someone else already uses at the upstream: uploadingError with the upstream\'s words, nothing adopted', async () => {
    const theirs = orderPayload('UP-TAKEN', (o) => (o.recipient.phone = '+79990000000'));
    expect((await p.remote('POST', '/orders', theirs)).status).toBe(200);
    const orderId = await createHere(expressOrder(p, 'UP-TAKEN'));
    await p.env.app.outbox.drain();
    const [last] = await historyHere(orderId);
    expect(last).toMatchObject({ key: 'uploadingError', errorCode: '200', description: expect.stringMatching(/already holds another order .* clientNumber UP-TAKEN.*must be unique/) });
    expect((await orderHere(orderId)).providerNumber).toBe('');
    expect(await upstreamOrders('UP-TAKEN')).toHaveLength(1);
  });

  it('a lost reply does not duplicate: the re-send finds the order at the upstream', async () => {
    p.proxy.dropNextReply(/^POST \/orders /);
    const orderId = await createHere(expressOrder(p, 'UP-LOST'));
    await p.env.app.outbox.drain();
    expect(p.proxy.dropped()).toBe(1);
    expect((await orderHere(orderId)).statusKey).toBe('uploading');
    expect(await p.env.app.outbox.state()).toMatchObject({ pending: 1, waitingForConnection: true });
    expect(await upstreamOrders('UP-LOST')).toHaveLength(1);

    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect(await orderHere(orderId)).toMatchObject({ statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SBE/) });
    expect(await upstreamOrders('UP-LOST')).toEqual([expect.objectContaining({ state: 'active', status_key: 'uploaded' })]);
    expect(p.calls.filter((c) => c === 'POST /orders')).toHaveLength(1);
    expect(p.calls).toContain('GET /orders/status');
  });

  it('upstream down: the order waits in the outbox and goes out once the upstream is back', async () => {
    p.proxy.down();
    const orderId = await createHere(expressOrder(p, 'UP-DOWN'));
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploading');
    const job = await p.env.app.db.selectFrom('outbox').select(['attempts', 'last_error']).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 1, last_error: expect.stringContaining('could not be reached') });
    // Statuses cannot be asked either: the refresh says so and changes nothing.
    expect(await upstreamOrders('UP-DOWN')).toEqual([]);

    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploading');

    p.proxy.up();
    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploaded');
    expect(await upstreamOrders('UP-DOWN')).toHaveLength(1);
  });

  it('a token the upstream refuses: orders wait, "test connection" says why, and they go out once it is fixed', async () => {
    value(await p.env.app.dispatch('connections.update', p.env.shop, { id: p.connection.id, credentials: { token: 'wrong-token-123456' } }));
    expect(value<ConnectionTestResult>(await p.env.app.dispatch('connections.test', p.env.shop, { id: p.connection.id }))).toMatchObject({
      ok: false,
      message: expect.stringContaining("does not accept the connection's token"),
    });
    // Its services stay known: orders are taken and wait.
    const orderId = await createHere(expressOrder(p, 'UP-TOKEN'));
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploading');

    value(await p.env.app.dispatch('connections.update', p.env.shop, { id: p.connection.id, credentials: { token: UP_TOKEN } }));
    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploaded');
  });
  it('a service that only cancels: the cancel passes through, a change is refused here (040306)', async () => {
    await p.env.app.services.connections.sync(p.connection.id);
    const point = await pointOf(p.env.app.db, p.key('sandbox-lockers'), { city: 'Санкт-Петербург', type: 2, maxSizeA: 'set' });
    const payload = orderPayload('UP-L', (o) => {
      Object.assign(o.order, { providerKey: p.key('sandbox-lockers'), tariffId: localId(1, 302), deliveryType: 2, pickupType: 2, pointOutId: point.id });
      o.cost = { assessedCost: 2500, codCost: 0 };
    });
    const orderId = await createHere(payload);
    await p.env.app.outbox.drain();
    const remoteId = (await orderHere(orderId)).additionalProviderNumber;
    expect((await p.env.call('PUT', `/v1/orders/${orderId}`, { body: payload })).json).toMatchObject({ code: '040306' });
    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    await p.env.app.outbox.drain();
    expect((await p.remote('GET', `/v1/orders/${remoteId}/status`)).json.status.key).toBe('deliveryCanceled');
  });

  it('a partial delivery at the upstream tells here which items were bought out', async () => {
    // The upstream's sandbox has registered 14 parcels before: the 15th (ours) is partly bought out.
    const now = p.upClock.now();
    for (let i = 1; i <= 14; i++) {
      await p.upstream.app.db
        .insertInto('sandbox_shipments')
        .values({ provider_number: `SBE${String(i).padStart(9, '0')}`, provider_key: 'sandbox-express', company_id: 1, client_number: `OLD-${i}`, payload: '{}', registered_at: now, canceled_at: null, removed_at: now })
        .execute();
    }
    const orderId = await createHere(expressOrder(p, 'UP-PART'));
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).providerNumber).toBe('SBE000000015');
    p.upClock.advance(60 * HOUR);
    await refreshUpstream();
    await p.env.app.services.statusRefresh.refresh();
    const here = (await p.env.call('GET', `/v1/orders/${orderId}`)).json;
    expect(here.order.statusKey).toBe('partialReturn');
    expect(here.places[0].items.map((i: { articul: string; quantityDelivered: number }) => [i.articul, i.quantityDelivered])).toEqual([['TS-01', 2], ['CP-02', 0]]);
  });

  it('the upstream is slow to transfer: the wait is bounded, and the next attempt adopts the order (one POST)', async () => {
    await p.close();
    p = await startPair({ slowUpstream: true });
    const orderId = await createHere(expressOrder(p, 'UP-SLOW'));
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploading');
    const job = await p.env.app.db.selectFrom('outbox').select('last_error').executeTakeFirstOrThrow();
    expect(job.last_error).toMatch(/has not finished transferring order \d+ \(still uploading\); it will be looked up again/);
    expect(p.calls.filter((c) => c === 'GET /orders/{id}/status')).toHaveLength(4); // the bound: pollDelaysMs

    await p.upstream.app.outbox.drain(); // the upstream gets to it
    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect((await orderHere(orderId)).statusKey).toBe('uploaded');
    expect(p.calls.filter((c) => c === 'POST /orders')).toHaveLength(1);
    expect(await upstreamOrders('UP-SLOW')).toHaveLength(1);
  });

  it('canceled here while the upstream still transfers it: found by clientNumber and canceled there too', async () => {
    await p.close();
    p = await startPair({ slowUpstream: true });
    const orderId = await createHere(expressOrder(p, 'UP-RACE'));
    await p.env.app.outbox.drain(); // accepted by the upstream, not transferred yet
    expect((await p.env.call('GET', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    await p.upstream.app.outbox.drain();
    p.env.clock.advance(HOUR);
    await p.env.app.outbox.drain();
    expect(await p.env.app.outbox.state()).toMatchObject({ pending: 0 });
    expect(await upstreamOrders('UP-RACE')).toEqual([expect.objectContaining({ state: 'canceled', status_key: 'deliveryCanceled' })]);
  });
});

describe('upstream aggregator: calculator, intervals and the connection\'s life', () => {
  let p: Pair;
  beforeEach(async () => {
    p = await startPair();
  });
  afterEach(() => p.close());

  it('delivery intervals and prices of an upstream service are the upstream\'s, under our tariff ids', async () => {
    const place = { from: { countryCode: 'RU', city: 'Москва' }, to: { countryCode: 'RU', city: 'Санкт-Петербург' } };
    const intervals = value<any>(await p.env.app.dispatch('calculator.intervals', p.env.shop, { ...place, providerKeys: [p.key('sandbox-express')] }));
    const theirIntervals = (await p.remote('POST', '/calculator/intervals', { ...place, providerKeys: ['sandbox-express'] })).json;
    expect(intervals.deliveryToDoor).toEqual(
      theirIntervals.deliveryToDoor.map((g: any) => ({ providerKey: p.key(g.providerKey), tariffs: g.tariffs.map((t: any) => ({ ...t, tariffId: localId(1, t.tariffId) })) })),
    );
    expect(intervals.deliveryToDoor[0].tariffs.length).toBeGreaterThan(0);

    const request = { ...place, places: [{ weight: 1200, length: 30, width: 20, height: 10 }], assessedCost: 2500, codCost: 0 };
    const prices = value<any>(await p.env.app.dispatch('calculator.calculate', p.env.shop, { ...request, providerKeys: [p.key('sandbox-express')] }));
    const theirPrices = (await p.remote('POST', '/calculator', { ...request, providerKeys: ['sandbox-express'] })).json;
    const costs = (r: any) => r.deliveryToDoor.flatMap((g: any) => g.tariffs.map((t: any) => [t.tariffId % 10_000, t.deliveryCost, t.insuranceFee, t.daysMin, t.daysMax]));
    expect(costs(prices)).toEqual(costs(theirPrices));
    expect(prices.deliveryToDoor[0].providerKey).toBe(p.key('sandbox-express'));
  });

  it('an upstream connection needs its address and token (040002); a removed one takes its services and lists with it', async () => {
    const noToken = await p.env.app.dispatch('connections.create', p.env.shop, { providerKey: 'upstream', name: 'X', baseUrl: p.proxy.url });
    expect(noToken).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'credentials.token' }] } });
    const noUrl = await p.env.app.dispatch('connections.create', p.env.shop, { providerKey: 'upstream', name: 'X', credentials: { token: 't' } });
    expect(noUrl).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'baseUrl' }] } });
    const cdekShape = await p.env.app.dispatch('connections.update', p.env.shop, { id: p.connection.id, credentials: { clientId: 'a', clientSecret: 'b' } });
    expect(cdekShape).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'credentials.token' }] } });

    await p.env.app.services.connections.sync(p.connection.id);
    const count = async (table: 'points' | 'tariffs' | 'provider_services') =>
      Number((await p.env.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('source', '=', 'upstream:1').executeTakeFirstOrThrow()).n);
    expect(await count('points')).toBeGreaterThan(0);
    value(await p.env.app.dispatch('connections.delete', p.env.shop, { id: p.connection.id }));
    expect([await count('points'), await count('tariffs'), await count('provider_services')]).toEqual([0, 0, 0]);
    const keys = (await p.env.call('GET', '/v1/lists/providers')).json.rows.map((r: { key: string }) => r.key);
    expect(keys.filter((k: string) => k.startsWith('upstream:'))).toEqual([]);
  });

  it('a service the upstream stops listing is no longer offered, but its orders are still tracked', async () => {
    const create = await p.env.call('POST', '/v1/orders', { body: expressOrder(p, 'UP-GONE') });
    await p.env.app.outbox.drain();
    // As a catalogue sync records it when the upstream no longer lists the service.
    await p.env.app.db.updateTable('upstream_services').set({ listed: 0 }).where('remote_key', '=', 'sandbox-express').execute();
    await p.env.app.services.connections.reload();
    const keys = (await p.env.call('GET', '/v1/lists/providers')).json.rows.map((r: { key: string }) => r.key);
    expect(keys).not.toContain(p.key('sandbox-express'));
    p.upClock.advance(6 * HOUR);
    value(await p.upstream.app.dispatch('statuses.refresh', ownerOf((await p.upstream.app.services.companies.byToken(UP_TOKEN))!.companyId), {}));
    expect(await p.env.app.services.statusRefresh.refresh()).toMatchObject({ checked: 1, changed: 1, failed: 0 });
    expect((await p.env.call('GET', `/v1/orders/${create.json.orderId}`)).json.order.statusKey).toBe('onPointIn');

    // A sync with the upstream offering it again lists it again.
    await p.env.app.services.connections.sync(p.connection.id, 'lists');
    expect((await p.env.call('GET', '/v1/lists/providers')).json.rows.map((r: { key: string }) => r.key)).toContain(p.key('sandbox-express'));
  });
});
