import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../electron/core/app';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { SECRET_KEY_FILE, type SecretBox } from '../../electron/core/providers/connections/secret-box';
import type { Connection, ConnectionTestResult } from '../../shared/contract/connections';
import type { Result } from '../../shared/result';
import { FAKE_TEST_ACCOUNT, generateOffices, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { tempDataDir } from '../helpers/test-app';
import { startTestServer } from '../helpers/test-server';
import { cdekOrder } from '../fakes/cdek/orders';

const quick = { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} };

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('CDEK connections: accounts the shop connects, with encrypted credentials', () => {
  let fake: FakeCdek;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  beforeEach(async () => {
    fake = await startFakeCdek({ offices: generateOffices(40) });
    env = await startTestServer({ cdek: quick });
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });

  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const providerKeys = async () => (await env.call('GET', '/v1/lists/providers')).json.rows.map((p: { key: string }) => p.key);

  it('connecting CDEK makes it a delivery service of /lists/providers; the secret is encrypted and never shown', async () => {
    expect(await providerKeys()).not.toContain('cdek');
    const created = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Основной склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
    expect(created).toMatchObject({ id: 1, providerKey: 'cdek', testMode: false, clientIdHint: '…tTEP', credentialsStored: true, credentialsReadable: true, isDefault: true });
    expect(JSON.stringify(created)).not.toContain(FAKE_TEST_ACCOUNT.clientSecret);

    expect(await providerKeys()).toContain('cdek');
    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=cdek')).json;
    expect(rows).toEqual([expect.objectContaining({ key: 'cdek', name: 'СДЭК', test: false, capabilities: expect.objectContaining({ cancel: true, update: true, intervals: 'dynamic' }) })]);

    const tariffs = (await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=cdek')}`)).json.rows;
    expect(tariffs.map((t: { id: number; pickupType: number; deliveryType: number }) => [t.id, t.pickupType, t.deliveryType])).toEqual([
      [136, 2, 2], [137, 2, 1], [138, 1, 2], [139, 1, 1], [366, 1, 2], [368, 2, 2],
    ]);

    const stored = await env.app.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
    expect(stored.credentials).toMatch(/^v1\./);
    expect(stored.credentials).not.toContain(FAKE_TEST_ACCOUNT.clientSecret);
    expect(stored.credentials).not.toContain(FAKE_TEST_ACCOUNT.clientId);
    expect(existsSync(join(env.dataDir, SECRET_KEY_FILE))).toBe(true);

    const test = value<ConnectionTestResult>(await run('connections.test', { id: created.id }));
    expect(test).toMatchObject({ ok: true, message: 'Connected to CDEK', tokenExpiresIn: 3600 });
    expect(fake.stats.byRoute['GET /v2/location/cities']).toBe(1);
  });

  it('test mode without credentials uses CDEK\'s public test account; outside test mode credentials are required (040002)', async () => {
    const test = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Тест', testMode: true, baseUrl: fake.url }));
    expect(test).toMatchObject({ testMode: true, credentialsStored: false, clientIdHint: null });
    expect(value<ConnectionTestResult>(await run('connections.test', { id: test.id }))).toMatchObject({ ok: true, message: 'Connected to CDEK (test mode)' });
    expect((await env.call('GET', '/v1/lists/providers?filter=key=cdek')).json.rows[0]).toMatchObject({ name: 'СДЭК (тестовый режим)', test: true });

    const refused = await run('connections.create', { providerKey: 'cdek', name: 'Боевой', baseUrl: fake.url });
    expect(refused).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'credentials', message: 'are required outside test mode', key: 'rule.credentialsRequired' }] } });
    const notAUrl = await run('connections.create', { providerKey: 'cdek', name: 'X', testMode: true, baseUrl: 'file:///etc/passwd' });
    expect(notAUrl).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'baseUrl' }] } });
    expect(await run('connections.update', { id: 99, name: 'нет такого' })).toMatchObject({ ok: false, error: { code: '040016' } });
  });

  it('wrong credentials: "test connection" says why, orders wait instead of failing, and go out once the account is fixed', async () => {
    const conn = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Опечатка', baseUrl: fake.url, credentials: { clientId: FAKE_TEST_ACCOUNT.clientId, clientSecret: 'typo' } }));
    expect(value<ConnectionTestResult>(await run('connections.test', { id: conn.id }))).toMatchObject({ ok: false, message: expect.stringMatching(/invalid_client/), tokenExpiresIn: null });

    const { orderId } = value<{ orderId: string }>(await run('orders.create', cdekOrder('CONN-1')));
    await env.app.outbox.drain();
    expect(await env.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: true });

    value(await run('connections.update', { id: conn.id, credentials: FAKE_TEST_ACCOUNT }));
    expect(value<ConnectionTestResult>(await run('connections.test', { id: conn.id })).ok).toBe(true);
    env.clock.advance(2_000);
    await env.app.outbox.drain();
    const row = await env.app.db.selectFrom('orders').select(['status_key', 'provider_number']).where('id', '=', Number(orderId)).executeTakeFirstOrThrow();
    expect(row).toEqual({ status_key: 'uploaded', provider_number: fake.order('CONN-1')!.cdekNumber });
  });

  it('several accounts: providerConnectId picks the account, no id means the default one, an unknown id is refused at once', async () => {
    const other = await startFakeCdek();
    try {
      const main = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Москва', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
      const second = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Казань', baseUrl: other.url, credentials: FAKE_TEST_ACCOUNT }));
      expect(value<Connection[]>(await run('connections.list')).map((c) => [c.name, c.isDefault])).toEqual([['Москва', true], ['Казань', false]]);

      value(await run('orders.create', cdekOrder('MULTI-1')));
      value(await run('orders.create', cdekOrder('MULTI-2', (o) => (o.order.providerConnectId = second.id))));
      value(await run('orders.create', cdekOrder('MULTI-3', (o) => (o.order.providerConnectId = main.id))));
      await env.app.outbox.drain();
      expect([fake.registrations('MULTI-1'), other.registrations('MULTI-1')]).toEqual([1, 0]);
      expect([fake.registrations('MULTI-2'), other.registrations('MULTI-2')]).toEqual([0, 1]);
      expect([fake.registrations('MULTI-3'), other.registrations('MULTI-3')]).toEqual([1, 0]);

      const unknown = await run('orders.create', cdekOrder('MULTI-4', (o) => (o.order.providerConnectId = 99)));
      expect(unknown).toMatchObject({ ok: false, error: { code: '040002', errors: [expect.objectContaining({ field: 'order.providerConnectId' })] } });

      value(await run('connections.delete', { id: second.id }));
      value(await run('connections.delete', { id: main.id }));
      expect(await providerKeys()).not.toContain('cdek');
      expect((await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=cdek')}`)).json.rows).toEqual([]);
      expect(await run('orders.create', cdekOrder('MULTI-5'))).toMatchObject({ ok: false, error: { code: '040002' } });
    } finally {
      await other.close();
    }
  });

  it('with a connection, CDEK answers the calculator (tarifflist) and the intervals (estimatedIntervals); an outage leaves only CDEK out', async () => {
    value(await run('connections.create', { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
    await env.app.services.connections.refreshPoints(); // points to hand parcels out in the city
    const calc = value<{ deliveryToDoor: { providerKey: string; tariffs: { tariffId: number; deliveryCost: number }[] }[]; deliveryToPoint: { providerKey: string; tariffs: { tariffId: number; pointIds: number[] }[] }[] }>(
      await run('calculator.calculate', { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1500 }], providerKeys: ['cdek'] }),
    );
    expect(calc.deliveryToDoor).toEqual([{ providerKey: 'cdek', tariffs: expect.arrayContaining([expect.objectContaining({ tariffId: 137 }), expect.objectContaining({ tariffId: 139 })]) }]);
    expect(calc.deliveryToPoint[0].tariffs.map((t) => t.tariffId).sort()).toEqual([136, 138, 366, 368]);

    const slots = value<{ deliveryToDoor: { providerKey: string; tariffs: { tariffId: number; toIntervals: { date: string; from: string; to: string }[] }[] }[] }>(
      await run('calculator.intervals', { from: { city: 'Москва' }, to: { city: 'Казань' }, pickupDate: '2026-03-02', providerKeys: ['cdek'] }),
    );
    expect(slots.deliveryToDoor).toEqual([
      { providerKey: 'cdek', tariffs: [expect.objectContaining({ tariffId: 137, pickupTypes: [2], deliveryTypes: [1] }), expect.objectContaining({ tariffId: 139, pickupTypes: [1], deliveryTypes: [1] })] },
    ]);
    expect(slots.deliveryToDoor[0].tariffs[0].toIntervals[0]).toEqual({ date: '2026-03-03', from: '09:00', to: '14:00' });

    fake.failNext('503', 5);
    const during = value<{ deliveryToDoor: { providerKey: string }[] }>(await run('calculator.calculate', { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1500 }] }));
    expect(during.deliveryToDoor.map((g) => g.providerKey)).not.toContain('cdek'); // the calculator itself still answers
  });

  it('CDEK offices are refreshed by the background worker and served by /v1/lists/points, offline', async () => {
    value(await run('connections.create', { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
    const { connections } = env.app.services;
    connections.start(60_000);
    await connections.stop(); // lets the first pass finish
    expect(fake.stats.byRoute['GET /v2/deliverypoints']).toBe(1);
    connections.start(60_000);
    await connections.stop();
    expect(fake.stats.byRoute['GET /v2/deliverypoints']).toBe(1); // fresh for a day
    await fake.close();
    const res = await env.call('GET', `/v1/lists/points?limit=5&filter=${encodeURIComponent('providerKey=cdek;city=Москва')}`);
    expect(res.status).toBe(200);
    expect(res.json.meta).toMatchObject({ total: 8, limit: 5 });
    expect(res.json.rows[0]).toMatchObject({ providerKey: 'cdek', code: 'MSK0001', city: 'Москва', worktime: { 1: '10:00/20:00' } });
    fake = await startFakeCdek(); // for afterEach
  });

  it('a connection added while the app runs has its offices loaded at once, not at the next hourly check (#15: the drop-off picker was empty)', async () => {
    const { connections } = env.app.services;
    connections.start(60 * 60_000); // started with no CDEK connection: nothing to load yet
    value(await run('connections.create', { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
    await connections.stop(); // lets the pass the new connection began finish
    expect(fake.stats.byRoute['GET /v2/deliverypoints']).toBe(1);
    const res = await env.call('GET', `/v1/lists/points?limit=1&filter=${encodeURIComponent('providerKey=cdek;city=Москва')}`);
    expect(res.json.meta).toMatchObject({ total: 8 });
  });
});

describe('CDEK connections: the secret box', () => {
  it('the shell\'s box (safeStorage in Electron) seals the credentials; another computer\'s box cannot read them and says so', async () => {
    const data = tempDataDir();
    const fake = await startFakeCdek();
    const sealed: string[] = [];
    const shellBox: SecretBox = {
      encrypt: (text) => {
        sealed.push(text);
        return `shell:${Buffer.from(text).toString('base64')}`;
      },
      decrypt: (blob) => Buffer.from(blob.replace(/^shell:/, ''), 'base64').toString(),
    };
    try {
      const first = await createApp({ dataDir: data.dir, clock: manualClock(), log: silentLogger, secretBox: shellBox, cdek: quick });
      const ctx = await first.desktopContext();
      value(await first.dispatch('connections.create', ctx, { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
      expect(sealed).toHaveLength(1);
      expect(existsSync(join(data.dir, SECRET_KEY_FILE))).toBe(false); // the key file is only the fallback
      await first.close();

      const elsewhere: SecretBox = { encrypt: (t) => t, decrypt: () => { throw new Error('safeStorage cannot decrypt'); } };
      const second = await createApp({ dataDir: data.dir, clock: manualClock(), log: silentLogger, secretBox: elsewhere, cdek: quick });
      const ctx2 = await second.desktopContext();
      expect(value<Connection[]>(await second.dispatch('connections.list', ctx2, {}))[0]).toMatchObject({ credentialsStored: true, credentialsReadable: false, clientIdHint: null });
      expect(value<ConnectionTestResult>(await second.dispatch('connections.test', ctx2, { id: 1 }))).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be decrypted/) });
      await second.close();
    } finally {
      await fake.close();
      data.remove();
    }
  });
});

describe('CDEK connections: hosts', () => {
  it('test mode talks to CDEK\'s test host with the public test account; production mode to the production host with the shop\'s account', async () => {
    const seen: { url: string; body?: string }[] = [];
    const stub = async (url: string, init: RequestInit) => {
      seen.push({ url, body: typeof init.body === 'string' ? init.body : undefined });
      const body = url.endsWith('/oauth/token') ? { access_token: 'stub', token_type: 'bearer', expires_in: 3600 } : [{ code: 44, city: 'Москва' }];
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const env = await startTestServer({ cdek: { ...quick, fetch: stub } });
    try {
      const run = (name: string, input: unknown) => env.app.dispatch(name, env.shop, input);
      const test = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Тест', testMode: true }));
      expect(value<ConnectionTestResult>(await run('connections.test', { id: test.id })).ok).toBe(true);
      expect(seen.map((s) => s.url)).toEqual(['https://api.edu.cdek.ru/v2/oauth/token', 'https://api.edu.cdek.ru/v2/location/cities?country_codes=RU&size=1']);
      expect(new URLSearchParams(seen[0].body).get('client_id')).toBe('wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP');

      seen.length = 0;
      const live = value<Connection>(await run('connections.create', { providerKey: 'cdek', name: 'Боевой', credentials: { clientId: 'shop-account', clientSecret: 'shop-secret' } }));
      expect(value<ConnectionTestResult>(await run('connections.test', { id: live.id })).ok).toBe(true);
      expect(seen[0].url).toBe('https://api.cdek.ru/v2/oauth/token');
      expect(new URLSearchParams(seen[0].body).get('client_id')).toBe('shop-account');
    } finally {
      await env.close();
    }
  });
});
