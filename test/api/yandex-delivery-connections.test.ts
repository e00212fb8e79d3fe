import { YANDEX_TEST_URL } from '../../electron/core/providers/yandex-delivery/client';
import type { YandexTuning } from '../../electron/core/providers/yandex-delivery/kind';
import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../shared/contract/connections';
import type { Result } from '../../shared/result';
import { orderCreateSchema } from '../../shared/schemas/order';
import { yandexOrder } from '../fakes/yandex-delivery/orders';
import { FAKE_YANDEX_TOKEN, generateYandexPoints, startFakeYandex, type FakeYandex } from '../fakes/yandex-delivery/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { startTestServer } from '../helpers/test-server';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('Yandex Delivery connections: the shop\'s account in Settings, its token sealed', () => {
  let fake: FakeYandex;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  const hosts: string[] = [];
  beforeEach(async () => {
    fake = await startFakeYandex({ points: generateYandexPoints(24) });
    // Test mode without an address goes to the public test host; no network here, so that call is answered "unreachable".
    const fetch: YandexTuning['fetch'] = async (input, init) => {
      if (input.startsWith(YANDEX_TEST_URL)) {
        hosts.push(new URL(input).host);
        throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND b2b.taxi.tst.yandex.net') });
      }
      return globalThis.fetch(input, init);
    };
    env = await startTestServer({ carrierTuning: { 'yandex-delivery': { fetch, timeoutMs: 5_000, pointBandDegrees: 10 } satisfies YandexTuning } });
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });

  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const connect = (extra: Record<string, unknown> = {}) =>
    run('connections.create', { providerKey: 'yandex-delivery', name: 'Яндекс, склад на Тверской', baseUrl: fake.url, credentials: { token: FAKE_YANDEX_TOKEN }, ...extra });

  it('Settings offers it with its fields; connected, it is a delivery service with its operations, its token sealed and never shown', async () => {
    const kinds = value<ConnectionKindInfo[]>(await run('connections.kinds'));
    expect(kinds.find((k) => k.key === 'yandex-delivery')).toMatchObject({ name: 'Яндекс Доставка', testMode: true, publicTestAccount: false, fields: [expect.objectContaining({ name: 'token', secret: true }), expect.objectContaining({ name: 'warehouseStationId', secret: false }), expect.objectContaining({ name: 'parallelCalls', type: 'number' })] });

    const created = value<Connection>(await connect());
    expect(created).toMatchObject({ providerKey: 'yandex-delivery', testMode: false, credentialsStored: true, credentialsReadable: true, isDefault: true });
    expect(JSON.stringify(created)).not.toContain(FAKE_YANDEX_TOKEN);
    const stored = await env.app.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
    expect(stored.credentials).toMatch(/^v1\./);
    expect(stored.credentials).not.toContain(FAKE_YANDEX_TOKEN);

    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=yandex-delivery')).json;
    expect(rows).toEqual([expect.objectContaining({ key: 'yandex-delivery', name: 'Яндекс Доставка', test: false })]);
    expect(rows[0].capabilities.operations).toEqual(expect.arrayContaining(['create', 'find', 'update', 'cancel', 'track', 'labels', 'handoverActs', 'rates', 'intervals', 'referenceData']));
    // Collection is booked with each request (pickupType 1, the warehouse station): no separate courier call.
    expect(rows[0].capabilities.operations).not.toContain('courierCalls');
    expect(rows[0].capabilities.pickupTypes).toEqual([1, 2]);
    const tariffs = (await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=yandex-delivery')}`)).json.rows;
    expect(tariffs.map((t: { id: number }) => t.id)).toEqual([9101, 9102, 9103, 9104]);

    expect(value<ConnectionTestResult>(await run('connections.test', { id: created.id }))).toMatchObject({ ok: true, message: 'Connected to Yandex Delivery', tokenExpiresIn: null });
  });

  it('"test connection" shows the platform\'s reason when it refuses the token; a token is required', async () => {
    const created = value<Connection>(await connect({ credentials: { token: 'y0_someone-elses-token' } }));
    const test = value<ConnectionTestResult>(await run('connections.test', { id: created.id }));
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/did not accept the account's token: Access denied/);
    const refused = await run('connections.create', { providerKey: 'yandex-delivery', name: 'Без токена', baseUrl: fake.url });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toMatch(/credentials\.token/);
  });

  it('test mode without an address talks to the platform\'s public test host', async () => {
    const created = value<Connection>(await run('connections.create', { providerKey: 'yandex-delivery', name: 'Тест', testMode: true, credentials: { token: FAKE_YANDEX_TOKEN } }));
    const test = value<ConnectionTestResult>(await run('connections.test', { id: created.id }));
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/could not be reached/);
    expect(hosts).toEqual(['b2b.taxi.tst.yandex.net']);
    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=yandex-delivery')).json;
    expect(rows[0]).toMatchObject({ name: 'Яндекс Доставка (тестовый режим)', test: true });
  });

  it('its points are synced into the lists, and orders to a point and to the door go out through the outbox with the warehouse setting', async () => {
    const created = value<Connection>(await connect({ settings: { warehouseStationId: 'warehouse-0042' } }));
    await env.app.services.connections.refreshPoints();
    const points = await env.app.db.selectFrom('points').select(['id', 'code']).where('source', '=', 'yandex-delivery').execute();
    expect(points).toHaveLength(24);
    const codeToId = new Map(points.map((p) => [p.code, p.id]));
    const dropOff = codeToId.get(fake.points().find((p) => p.available_for_dropoff)!.id)!;
    const pickup = codeToId.get(fake.points().find((p) => p.type === 'pickup_point' && p.payment_methods.includes('cash_on_receipt'))!.id)!;

    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(yandexOrder('YC-POINT', { pointInId: dropOff, toPoint: pickup }, (o) => { o.order.providerConnectId = created.id; })));
    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(yandexOrder('YC-DOOR', { pointInId: dropOff }, (o) => { o.order.pickupType = 1; o.order.tariffId = 9103; o.order.pointInId = undefined; })));
    await drainOutbox(env.app, env.clock);
    const orders = await env.app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).orderBy('client_number').execute();
    expect(orders).toEqual([
      { client_number: 'YC-DOOR', status_key: 'uploaded', provider_number: fake.request('YC-DOOR')!.id },
      { client_number: 'YC-POINT', status_key: 'uploaded', provider_number: fake.request('YC-POINT')!.id },
    ]);
    expect(fake.request('YC-DOOR')!.body.source).toEqual({ platform_station: { platform_id: 'warehouse-0042' } });
  });
});
