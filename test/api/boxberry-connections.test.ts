import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../shared/contract/connections';
import type { Result } from '../../shared/result';
import { orderCreateSchema } from '../../shared/schemas/order';
import { boxberryOrder } from '../fakes/boxberry/orders';
import { FAKE_BOXBERRY_TOKEN, startFakeBoxberry, type FakeBoxberry } from '../fakes/boxberry/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { startTestServer } from '../helpers/test-server';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('Boxberry connections: the shop\'s token in Settings, sealed; its points and orders through the outbox', () => {
  let fake: FakeBoxberry;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  beforeEach(async () => {
    fake = await startFakeBoxberry();
    env = await startTestServer({ carrierTuning: { boxberry: { timeoutMs: 5_000 } } });
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });
  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);

  it('offered in Settings without a test mode (Boxberry has no test host); connected, it lists its operations and tariffs; a wrong token fails the check with Boxberry\'s words', async () => {
    const kinds = value<ConnectionKindInfo[]>(await run('connections.kinds'));
    expect(kinds.find((k) => k.key === 'boxberry')).toMatchObject({ name: 'Boxberry', testMode: false, fields: [expect.objectContaining({ name: 'token', secret: true, required: 'always' }), expect.objectContaining({ name: 'parallelCalls', type: 'number' })] });
    const created = value<Connection>(await run('connections.create', { providerKey: 'boxberry', name: 'Boxberry', baseUrl: fake.url, credentials: { token: FAKE_BOXBERRY_TOKEN } }));
    const stored = await env.app.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
    expect(stored.credentials).not.toContain(FAKE_BOXBERRY_TOKEN);
    expect(value<ConnectionTestResult>(await run('connections.test', { id: created.id }))).toMatchObject({ ok: true, message: 'Connected to Boxberry' });

    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=boxberry')).json;
    expect(rows[0].capabilities.operations).toEqual(['create', 'find', 'update', 'cancel', 'track', 'labels', 'handoverActs', 'courierCalls', 'rates', 'referenceData']);
    const tariffs = (await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=boxberry')}`)).json.rows;
    expect(tariffs.map((t: { id: number }) => t.id)).toEqual([9201, 9202]);

    const wrong = value<Connection>(await run('connections.create', { providerKey: 'boxberry', name: 'Чужой', baseUrl: fake.url, credentials: { token: 'not-ours' } }));
    const test = value<ConnectionTestResult>(await run('connections.test', { id: wrong.id }));
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/Ключ интеграции не найден/);
  });

  it('its points are synced city by city, and an order to a point and one to the door go out through the outbox', async () => {
    value<Connection>(await run('connections.create', { providerKey: 'boxberry', name: 'Boxberry', baseUrl: fake.url, credentials: { token: FAKE_BOXBERRY_TOKEN } }));
    await env.app.services.connections.refreshPoints();
    const rows = await env.app.db.selectFrom('points').select(['id', 'code']).where('source', '=', 'boxberry').execute();
    expect(rows).toHaveLength(40);
    const idOf = new Map(rows.map((r) => [r.code, r.id]));
    const moscow = fake.points().filter((p) => p.CityName === 'Москва');
    const dropOff = idOf.get(moscow.find((p) => p.ReceptionLaP === 'Yes')!.Code)!;
    const target = idOf.get(moscow.find((p) => p.OnlyPrepaidOrders === 'No')!.Code)!;
    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(boxberryOrder('BC-POINT', { pointInId: dropOff, toPoint: target })));
    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(boxberryOrder('BC-DOOR', { pointInId: dropOff })));
    await drainOutbox(env.app, env.clock);
    const orders = await env.app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).orderBy('client_number').execute();
    expect(orders).toEqual([
      { client_number: 'BC-DOOR', status_key: 'uploaded', provider_number: fake.parcel('BC-DOOR')!.track },
      { client_number: 'BC-POINT', status_key: 'uploaded', provider_number: fake.parcel('BC-POINT')!.track },
    ]);
  });
});
