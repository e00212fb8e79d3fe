import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '../../shared/errors';
import { contract, type CommandName } from '../../shared/contract';
import { roles, type Role } from '../../shared/roles';
import { authorize } from '../../electron/core/commands';
import { packerSessionMs, signInLimits } from '../../electron/core/auth/auth-service';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

const names = Object.keys(contract) as CommandName[];
const ownerOnlyFamilies = ['connections.', 'settings.', 'backup.', 'users.', 'lan.', 'logs.', 'apiLogin.', 'webhooks.', 'senderProfiles.create', 'senderProfiles.update', 'senderProfiles.delete'];
const isOwnerOnly = (name: string) => ownerOnlyFamilies.some((family) => name.startsWith(family));

/** A local server that records whatever reaches it: where a stolen connection would send the shop's credentials. */
async function startCaptureServer() {
  const seen: { url: string; body: string; authorization?: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', body, authorization: req.headers.authorization });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"x","expires_in":3600}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('who may call which command', () => {
  it('every command declares its roles, and the declarations are the model of the issue', () => {
    for (const name of names) {
      const access = contract[name].roles;
      expect(access === 'public' || (Array.isArray(access) && access.length > 0), name).toBe(true);
      if (access === 'public') {
        expect(name).toBe('auth.signIn');
        continue;
      }
      expect(access, name).not.toContain('client');
      expect((access as readonly Role[]).includes('packer'), name).toBe(!isOwnerOnly(name));
      expect(access, name).toContain('owner');
    }
  });

  it('the gate lets each role in exactly where the command says (every command × every role)', () => {
    for (const name of names) {
      for (const role of [...roles, null] as (Role | null)[]) {
        const who = role === null ? { role, address: null } : { role, companyId: 1, sessionId: null, userId: null, address: null };
        const access = contract[name].roles as readonly Role[] | 'public';
        const allowed = access === 'public' || (role !== null && access.includes(role));
        if (allowed) expect(authorize(name, who), `${name} as ${role}`).toBe(name);
        else expect(() => authorize(name, who), `${name} as ${role}`).toThrow(role === null ? /Sign in first/ : /owner only|delivery interface/);
      }
    }
  });
});

describe('roles over the browser-mode transport', () => {
  let env: TestServer;
  let owner: string;
  beforeEach(async () => {
    env = await startTestServer();
    owner = `Session ${(await env.app.services.auth.openOwnerSession()).secret}`;
  });
  afterEach(() => env.close());

  const command = (name: string, auth: string | null, body: unknown = {}) => env.call('POST', `/app/commands/${name}`, { token: auth, body });

  async function addPacker(name = 'Анна', password = 'упаковка-2026') {
    const created = await command('users.create', owner, { name, password });
    expect(created.status).toBe(200);
    const signedIn = await command('auth.signIn', null, { name, password });
    expect(signedIn.status).toBe(200);
    return { user: created.json.value, session: `Session ${signedIn.json.value.session.secret}`, signedIn: signedIn.json.value };
  }

  it('refuses every command but signing in to an API token (403), to no session (401), and owner-only ones to a packer (403)', async () => {
    const { session: packer } = await addPacker();
    for (const name of names) {
      if (name === 'auth.signIn') continue;
      const asClient = await command(name, env.tokenA);
      expect([asClient.status, asClient.json.code], `${name} as client`).toEqual([403, ErrorCode.forbidden]);
      const asGuest = await command(name, null);
      expect([asGuest.status, asGuest.json.code], `${name} without a session`).toEqual([401, ErrorCode.unauthorized]);
      if (isOwnerOnly(name)) {
        const asPacker = await command(name, packer);
        expect([asPacker.status, asPacker.json.code], `${name} as packer`).toEqual([403, ErrorCode.forbidden]);
      }
    }
  });

  it('command families: the owner runs settings, connections, users and backups; a packer the daily work', async () => {
    const { session: packer } = await addPacker();
    for (const [name, input] of [['settings.get', {}], ['connections.list', {}], ['users.list', {}], ['backup.list', {}], ['senderProfiles.list', {}]] as const) {
      const answer = await command(name, owner, input);
      expect([answer.status, answer.json.ok], `${name} as owner`).toEqual([200, true]);
    }
    const created = await command('orders.create', packer, orderPayload('PACK-1'));
    expect(created.json).toMatchObject({ ok: true, value: { orderId: expect.any(String) } });
    const shopOrders = await command('orders.list', owner, { limit: 10, offset: 0 });
    expect(shopOrders.json.value.rows.map((r: { clientNumber: string }) => r.clientNumber)).toEqual(['PACK-1']);
    for (const [name, input] of [
      ['orders.list', { limit: 10, offset: 0 }], ['orders.get', { orderId: created.json.value.orderId }], ['drafts.list', {}], ['import.fields', {}],
      ['import.presets.list', {}], ['statuses.lastRefresh', {}], ['outbox.state', {}], ['providers.list', {}], ['senderProfiles.list', {}],
      ['lists.cities', { search: 'Мос' }], ['orders.stuck', {}],
    ] as const) {
      const answer = await command(name, packer, input);
      expect([answer.status, answer.json.ok], `${name} as packer`).toEqual([200, true]);
    }
    // The client company's orders stay its own: the packer works with the shop's.
    await env.call('POST', '/v1/orders', { body: orderPayload('CLIENT-1') });
    expect((await command('orders.list', packer, { limit: 10, offset: 0 })).json.value.rows.map((r: { clientNumber: string }) => r.clientNumber)).toEqual(['PACK-1']);
  });

  it('session.current says who the window is: the owner for the printed link, the packer by name with the end of the shift', async () => {
    const me = await command('session.current', owner);
    expect(me.json.value).toEqual({ role: 'owner', companyId: env.shop.companyId, companyName: 'Мой магазин', userName: null, expiresAt: null });
    const { session, signedIn } = await addPacker('Борис');
    const identity = { role: 'packer', companyId: env.shop.companyId, companyName: 'Мой магазин', userName: 'Борис', expiresAt: env.clock.now() + packerSessionMs };
    expect(signedIn.identity).toEqual(identity);
    expect((await command('session.current', session)).json.value).toEqual(identity);
  });

  it('a packer session ends after its shift, on sign-out, and when the owner revokes it or changes the password', async () => {
    const first = await addPacker();
    env.clock.advance(packerSessionMs);
    expect((await command('orders.list', first.session, {})).status).toBe(401);

    const second = await addPacker('Вера');
    expect((await command('auth.signOut', second.session)).json.value).toEqual({ signedOut: true });
    expect((await command('orders.list', second.session, {})).status).toBe(401);

    const third = await command('auth.signIn', null, { name: 'Вера', password: 'упаковка-2026' });
    const third2 = await command('auth.signIn', null, { name: 'Вера', password: 'упаковка-2026' });
    const [a, b] = [third, third2].map((r) => `Session ${r.json.value.session.secret}`);
    const vera = (await command('users.list', owner)).json.value.find((u: { name: string }) => u.name === 'Вера');
    expect(vera.activeSessions).toBe(2);
    expect((await command('users.revokeSessions', owner, { userId: vera.id })).json.value).toEqual({ revoked: 2 });
    for (const s of [a, b]) expect((await command('orders.list', s, {})).status).toBe(401);

    const fourth = await command('auth.signIn', null, { name: 'Вера', password: 'упаковка-2026' });
    await command('users.setPassword', owner, { userId: vera.id, password: 'новый-пароль-1' });
    expect((await command('orders.list', `Session ${fourth.json.value.session.secret}`, {})).status).toBe(401);
    expect((await command('auth.signIn', null, { name: 'Вера', password: 'упаковка-2026' })).status).toBe(401);
    expect((await command('auth.signIn', null, { name: 'Вера', password: 'новый-пароль-1' })).status).toBe(200);

    expect((await command('users.remove', owner, { userId: vera.id })).json.ok).toBe(true);
    expect((await command('auth.signIn', null, { name: 'Вера', password: 'новый-пароль-1' })).status).toBe(401);
  });

  it('the shop\'s windows hear when packers are added, sign in or are removed, so the users list follows', async () => {
    const heard: unknown[] = [];
    env.app.events.subscribe((event) => event.type === 'settings.changed' && heard.push(event));
    const { user } = await addPacker();
    await command('users.remove', owner, { userId: user.id });
    expect(heard).toEqual(Array(3).fill({ type: 'settings.changed', companyId: env.shop.companyId, what: 'users' }));
  });

  it('passwords are kept as salted scrypt hashes with their parameters, never as text', async () => {
    await addPacker('Анна', 'упаковка-2026');
    await addPacker('Борис', 'упаковка-2026');
    const rows = await env.app.db.selectFrom('users').select('password_hash').execute();
    for (const { password_hash } of rows) {
      expect(password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(password_hash).not.toContain('упаковка');
    }
    expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
    const sessions = await env.app.db.selectFrom('sessions').select('secret_hash').execute();
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.secret_hash))).toBe(true);
  });

  it('a packer\'s name is the same name in any case and with ё or е: one packer per name, sign-in as it is typed', async () => {
    await addPacker('Семёнова Вера', 'упаковка-2026');
    const twin = await command('users.create', owner, { name: 'СЕМЕНОВА вера', password: 'другой-пароль' });
    expect(twin.json).toMatchObject({ ok: false, error: { code: '040000', description: 'A packer named СЕМЕНОВА вера already exists' } });
    expect((await command('auth.signIn', null, { name: '  семенова ВЕРА ', password: 'упаковка-2026' })).status).toBe(200);
    expect((await command('auth.signIn', null, { name: 'Семёнова Надя', password: 'упаковка-2026' })).status).toBe(401);
  });

  it('sign-in attempts are limited per name, then per address, with their own code; the wait ends', async () => {
    await addPacker('Анна', 'упаковка-2026');
    for (let i = 0; i < signInLimits.perName; i++) expect((await command('auth.signIn', null, { name: 'Анна', password: `guess-${i}` })).status).toBe(401);
    const limited = await command('auth.signIn', null, { name: 'анна', password: 'упаковка-2026' });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: ErrorCode.tooManyAttempts, message: 'Too many attempts', description: expect.stringMatching(/try again in 15 min/) });
    env.clock.advance(signInLimits.windowMs);
    expect((await command('auth.signIn', null, { name: 'Анна', password: 'упаковка-2026' })).status).toBe(200);

    // Guessing across many names from one address runs into the address's limit.
    for (let i = 0; i < signInLimits.perAddress; i++) await command('auth.signIn', null, { name: `user-${i}`, password: 'x' });
    expect((await command('auth.signIn', null, { name: 'Анна', password: 'упаковка-2026' })).json.code).toBe(ErrorCode.tooManyAttempts);
  });

  it('pushes each window its own company\'s events only, and closes a revoked session\'s stream', async () => {
    const { session: packer, user } = await addPacker();
    const open = async (auth: string) => {
      const response = await fetch(`${env.base}/app/events`, { headers: { Authorization: auth } });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      /** Reads until the text matches (answers it), or until the server closes the stream (answers 'closed'). */
      const until = async (pattern?: RegExp) => {
        while (!pattern?.test(text)) {
          const { done, value } = await reader.read();
          if (done) return 'closed';
          text += value;
        }
        return text;
      };
      return { status: response.status, until };
    };
    expect((await fetch(`${env.base}/app/events`, { headers: { Authorization: env.tokenA } })).status).toBe(403);
    expect((await fetch(`${env.base}/app/events`)).status).toBe(401);

    const stream = await open(packer);
    expect(stream.status).toBe(200);
    await stream.until(/: connected/);
    await env.call('POST', '/v1/orders', { body: orderPayload('OTHER-COMPANY') }); // company A's order
    await command('orders.create', owner, orderPayload('SHOP-ORDER'));
    const text = await stream.until(/orders\.changed/);
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
    expect(events.every((e) => e.companyId === env.shop.companyId)).toBe(true);
    // A write to the closed stream would be an uncaught error that stops the whole server.
    const uncaught: unknown[] = [];
    const collect = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', collect);
    try {
      await command('users.revokeSessions', owner, { userId: user.id }); // also tells the shop's windows the users changed
      expect(await stream.until()).toBe('closed');
      await command('orders.create', owner, orderPayload('AFTER-REVOKE')); // more events for the same company
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', collect);
    }
    expect((await fetch(`${env.base}/app/events`, { headers: { Authorization: packer } })).status).toBe(401);
  });
});

describe('the attack from the issue: an API client\'s token against the window\'s transport', () => {
  let env: TestServer;
  let fake: FakeCdek;
  let capture: Awaited<ReturnType<typeof startCaptureServer>>;
  beforeEach(async () => {
    fake = await startFakeCdek();
    capture = await startCaptureServer();
    env = await startTestServer({ cdek: { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} } });
  });
  afterEach(async () => {
    await env.close();
    await capture.close();
    await fake.close();
  });

  it('cannot list connections, move one to its own address, capture the credentials, turn the API off or touch backups', async () => {
    const created = await env.app.dispatch('connections.create', env.shop, { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const id = (created.value as { id: number }).id;
    const attack = (name: string, body: unknown, auth = env.tokenA) => env.call('POST', `/app/commands/${name}`, { token: auth, body });

    for (const auth of [env.tokenA, `Bearer ${env.tokenA}`]) {
      const listed = await attack('connections.list', {}, auth);
      expect([listed.status, listed.json.code]).toEqual([403, ErrorCode.forbidden]);
      expect(listed.text).not.toContain('Склад');
    }
    expect((await attack('connections.list', {}, `Session ${env.tokenA}`)).status).toBe(401); // a token is no session
    expect((await attack('connections.update', { id, baseUrl: capture.url })).status).toBe(403);
    expect((await attack('connections.test', { id })).status).toBe(403);
    expect((await attack('settings.update', { preferences: { localApiEnabled: false } })).status).toBe(403);
    expect((await attack('backup.now', {})).status).toBe(403);
    expect((await attack('backup.restore', { id: 'shipdesk-20260101-000000.db' })).status).toBe(403);
    expect((await attack('users.create', { name: 'evil', password: 'password-123' })).status).toBe(403);
    expect((await env.call('GET', '/app/events', { token: env.tokenA })).status).toBe(403);

    expect(capture.seen).toEqual([]);
    const stored = await env.app.db.selectFrom('provider_connections').select('base_url').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.base_url).toBe(fake.url);
    expect(await env.app.services.settings.localApiEnabled()).toBe(true);
    expect(await env.app.services.backup.list()).toEqual([]);
    // The token still does what it is for: the delivery interface, for its own orders.
    expect((await env.call('POST', '/v1/orders', { body: orderPayload('A-1') })).status).toBe(200);
  });
});
