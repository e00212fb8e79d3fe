import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../../shared/contract/connections';
import type { ProviderInfo } from '../../../shared/contract/providers';
import type { Result } from '../../../shared/result';
import { createTestApp } from '../../../test/helpers/test-app';
import { orderPayload } from '../../../test/helpers/payloads';
import { serviceKind, type CarrierConnection } from './carrier-kind';
import { carrierKinds } from './kinds';
import { ProviderRejectedError, type Carrier } from './provider';

/**
 * A delivery service added the way README.md says: a kind with its settings and a carrier per account.
 * Its carrier keeps its shipments in memory (the kind of thing a fake service does) and names the account
 * in each number, so the test sees which connection an order went through.
 */
const registered: string[] = [];
const toyInfo = (testMode: boolean): ProviderInfo => ({
  key: 'toy-post',
  name: testMode ? 'Игрушечная почта (тест)' : 'Игрушечная почта',
  description: 'A service added in a test',
  test: testMode,
  capabilities: { cancel: false, update: false, intervals: 'none', deliveryTypes: [1], pickupTypes: [1], cod: true },
});
function toyCarrier(connection: CarrierConnection): Carrier & { ping(): string } {
  const shipments = new Map<string, string>();
  return {
    info: toyInfo(connection.testMode),
    check: async () => [],
    async register(request) {
      const number = `${connection.secrets.apiKey}-${request.clientNumber}-x${connection.settings.copies ?? 1}`;
      shipments.set(request.clientNumber, number);
      registered.push(number);
      return { providerNumber: number };
    },
    find: async (request) => (shipments.has(request.clientNumber) ? { providerNumber: shipments.get(request.clientNumber)! } : null),
    track: async () => new Map(),
    ping() {
      if (connection.secrets.apiKey === 'wrong-key-000') throw new ProviderRejectedError('the key is not known to Toy Post');
      return `Toy Post answers ${connection.name}`;
    },
  };
}
const toyKind = serviceKind({
  key: 'toy-post',
  name: 'Игрушечная почта',
  noun: 'Toy Post',
  englishName: 'Toy Post',
  testMode: false,
  baseUrl: 'optional',
  fields: [
    { name: 'apiKey', label: { ru: 'Ключ API', en: 'API key' }, secret: true, type: 'text', required: 'always', hint: true },
    { name: 'copies', label: { ru: 'Копий этикетки', en: 'Label copies' }, secret: false, type: 'number', required: 'never', min: 1, max: 3 },
  ],
  info: toyInfo,
  create: (connection) => toyCarrier(connection),
  test: async (carrier) => ({ message: carrier.ping(), tokenExpiresIn: null }),
});

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('the carrier table: a service added as one kind', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  beforeEach(async () => {
    registered.length = 0;
    env = await createTestApp({ carrierKinds: [...carrierKinds, toyKind] });
  });
  afterEach(() => env.close());

  it('the settings form learns its fields from the table, secret ones marked', async () => {
    const kinds = value<ConnectionKindInfo[]>(await run('connections.kinds'));
    expect(kinds.map((k) => k.key)).toEqual([...carrierKinds.map((k) => k.key), 'toy-post']);
    expect(kinds.find((k) => k.key === 'cdek')).toMatchObject({ testMode: true, publicTestAccount: true, aggregator: false });
    expect(kinds.find((k) => k.key === 'upstream')).toMatchObject({ baseUrl: 'required', aggregator: true, fields: [expect.objectContaining({ name: 'token', secret: true }), expect.objectContaining({ name: 'parallelCalls', secret: false })] });
    expect(kinds.find((k) => k.key === 'toy-post')!.fields.map((f) => [f.name, f.secret, f.type])).toEqual([['apiKey', true, 'text'], ['copies', false, 'number'], ['parallelCalls', false, 'number']]);
  });

  it('its own rules refuse a connection field by field (040002) and store nothing', async () => {
    const noKey = await run('connections.create', { providerKey: 'toy-post', name: 'A', credentials: { token: 'x' } });
    expect(noKey).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'credentials.apiKey', message: 'is required for Toy Post' }] } });
    const badSettings = await run('connections.create', { providerKey: 'toy-post', name: 'A', credentials: { apiKey: 'key-aaaa-0001' }, settings: { copies: 9, colour: 'red' } });
    expect(badSettings).toMatchObject({
      ok: false,
      error: { code: '040002', errors: [{ field: 'settings.copies', message: 'must be at most 3' }, { field: 'settings.colour', message: 'is not a setting of Toy Post' }] },
    });
    const testMode = await run('connections.create', { providerKey: 'toy-post', name: 'A', testMode: true, credentials: { apiKey: 'key-aaaa-0001' } });
    expect(testMode).toMatchObject({ ok: false, error: { errors: [{ field: 'testMode', message: 'Toy Post has no test mode' }] } });
    const unknown = await run('connections.create', { providerKey: 'pigeon', name: 'A' });
    expect(unknown).toMatchObject({ ok: false, error: { errors: [{ field: 'providerKey', message: `must be one of: ${[...carrierKinds.map((k) => k.key), 'toy-post'].join(', ')}` }] } });
    expect(value<Connection[]>(await run('connections.list'))).toEqual([]);
  });

  it('once connected it is a delivery service; orders go through the account they name, with its settings', async () => {
    expect(value<ProviderInfo[]>(await run('providers.list')).map((p) => p.key)).not.toContain('toy-post');
    const main = value<Connection>(await run('connections.create', { providerKey: 'toy-post', name: 'Main', credentials: { apiKey: 'key-main-0001' } }));
    const second = value<Connection>(await run('connections.create', { providerKey: 'toy-post', name: 'Second', credentials: { apiKey: 'key-second-02' }, settings: { copies: 2 } }));
    expect(main).toMatchObject({ clientIdHint: '…0001', credentialsStored: true, settings: {}, isDefault: true });
    expect(second).toMatchObject({ settings: { copies: 2 }, isDefault: false });
    expect(JSON.stringify(await env.app.db.selectFrom('provider_connections').selectAll().execute())).not.toContain('key-main-0001');
    const listed = value<ProviderInfo[]>(await run('providers.list')).find((p) => p.key === 'toy-post');
    // Only what its carrier does, plus the labels and acts ShipDesk draws for it.
    expect(listed?.capabilities).toMatchObject({ operations: ['create', 'find', 'track', 'labels', 'handoverActs'], labels: true, handoverActs: true, courierCalls: false });

    const toy = (n: string, connectionId?: number) =>
      orderPayload(n, (o) => {
        o.order.providerKey = 'toy-post';
        if (connectionId) o.order.providerConnectId = connectionId;
      });
    value(await run('orders.create', toy('TOY-1')));
    value(await run('orders.create', toy('TOY-2', second.id)));
    await env.app.outbox.drain();
    expect(registered.sort()).toEqual(['key-main-0001-TOY-1-x1', 'key-second-02-TOY-2-x2']);

    value(await run('connections.update', { id: main.id, settings: { copies: 3 } }));
    value(await run('orders.create', toy('TOY-3')));
    await env.app.outbox.drain();
    expect(registered).toContain('key-main-0001-TOY-3-x3');
  });

  it('"test connection" is the kind\'s own check, and says why it failed', async () => {
    const good = value<Connection>(await run('connections.create', { providerKey: 'toy-post', name: 'Main', credentials: { apiKey: 'key-main-0001' } }));
    const bad = value<Connection>(await run('connections.create', { providerKey: 'toy-post', name: 'Old', credentials: { apiKey: 'wrong-key-000' } }));
    expect(value<ConnectionTestResult>(await run('connections.test', { id: good.id }))).toMatchObject({ ok: true, message: 'Toy Post answers Main' });
    expect(value<ConnectionTestResult>(await run('connections.test', { id: bad.id }))).toMatchObject({ ok: false, message: 'the key is not known to Toy Post' });
  });
});
