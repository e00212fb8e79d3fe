import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { DATABASE_CHOICE_FILE } from '../../electron/core/settings/database-choice';
import { createTestDatabase, testPostgresUrl, onPostgres } from '../../electron/core/store/test-engines';
import { closedPort } from '../helpers/closed-port';
import { tempDataDir, testEngine } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

// Settings → Database over the browser-mode transport: the owner's alone; the choice lands in the data folder with its
// password sealed, and the next start opens it.

/**
 * What the page names as in use: the data folder's SQLite file, or (the api-postgres run, an app started on a database
 * of its own as serve's --database starts it) that PostgreSQL database, by server, name and user.
 * "Next" stays the data folder's choice either way: that is what the next start without --database opens.
 */
const inUseOf = (dataDir: string) => {
  if (testEngine === 'sqlite') return { engine: 'sqlite', file: join(dataDir, 'shipdesk.db') };
  const server = new URL(process.env.SHIPDESK_TEST_POSTGRES!);
  return { engine: 'postgres', host: server.hostname, port: Number(server.port), database: expect.stringMatching(/^shipdesk_test_/), user: server.username };
};

describe('Settings → Database', () => {
  let env: TestServer;
  beforeEach(async () => {
    env = await startTestServer();
  });
  afterEach(() => env.close());

  it('shows the database in use and the data folder\'s SQLite file for the next start; packers and API tokens are refused', async () => {
    const state = await env.command('settings.database');
    expect(state.json).toEqual({ ok: true, value: { inUse: inUseOf(env.dataDir), next: { engine: 'sqlite', file: join(env.dataDir, 'shipdesk.db') } } });
    await env.command('users.create', { name: 'Анна', password: 'упаковка-2026' });
    const signedIn = await env.command('auth.signIn', { name: 'Анна', password: 'упаковка-2026' }, null);
    const packer = `Session ${signedIn.json.value.session.secret}`;
    for (const name of ['settings.database', 'settings.databaseCheck', 'settings.databaseChoose']) {
      expect((await env.command(name, { url: 'postgres://u:p@127.0.0.1/db', engine: 'sqlite' }, packer)).status, name).toBe(403);
      expect((await env.command(name, { url: 'postgres://u:p@127.0.0.1/db', engine: 'sqlite' }, env.shopToken)).status, name).toBe(403);
    }
  });

  it('refuses what is not a PostgreSQL URL and says plainly when the server is not there', async () => {
    const bad = await env.command('settings.databaseCheck', { url: 'mysql://root@localhost/shop' });
    expect(bad.json).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'url' }] } });
    const port = await closedPort();
    const away = await env.command('settings.databaseCheck', { url: `postgres://u:secret@127.0.0.1:${port}/shop` });
    expect(away.json).toMatchObject({ ok: true, value: { ok: false, problem: 'unreachable' } });
    expect(away.json.value.detail).not.toContain('secret');
    expect((await env.command('settings.databaseChoose', { engine: 'postgres', url: 'not a url' })).json).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'url' }] } });
    expect(existsSync(join(env.dataDir, DATABASE_CHOICE_FILE))).toBe(false);
  });

  it('stores the choice with the password sealed; back to SQLite removes it', async () => {
    const chosen = await env.command('settings.databaseChoose', { engine: 'postgres', url: 'postgres://shop:пароль-1@db.local:5433/shipdesk' });
    expect(chosen.json.value).toEqual({
      inUse: inUseOf(env.dataDir),
      next: { engine: 'postgres', host: 'db.local', port: 5433, database: 'shipdesk', user: 'shop' },
    });
    const stored = readFileSync(join(env.dataDir, DATABASE_CHOICE_FILE), 'utf8');
    expect(stored).not.toContain('пароль');
    expect(stored).not.toContain(encodeURIComponent('пароль-1'));
    expect(JSON.parse(stored)).toMatchObject({ engine: 'postgres', url: 'postgres://shop@db.local:5433/shipdesk', password: expect.stringMatching(/^v1\./) });
    const back = await env.command('settings.databaseChoose', { engine: 'sqlite' });
    expect(back.json.value.next).toEqual({ engine: 'sqlite', file: join(env.dataDir, 'shipdesk.db') });
    expect(existsSync(join(env.dataDir, DATABASE_CHOICE_FILE))).toBe(false);
  });
});

describe.skipIf(!testPostgresUrl)(onPostgres('Settings → Database on a PostgreSQL server'), () => {
  it('checks the server (empty, then ShipDesk\'s), and the next start opens the chosen database', async () => {
    const database = await createTestDatabase(testPostgresUrl!);
    const data = tempDataDir();
    try {
      let app = await createApp({ dataDir: data.dir, log: silentLogger });
      const owner = await app.desktopContext();
      const empty = await app.dispatch('settings.databaseCheck', owner, { url: database.url });
      expect(empty).toMatchObject({ ok: true, value: { ok: true, supported: true, contents: 'empty', orders: null, serverVersion: expect.stringMatching(/^\d+/) } });
      await app.dispatch('settings.databaseChoose', owner, { engine: 'postgres', url: database.url });
      await app.close();

      app = await createApp({ dataDir: data.dir, log: silentLogger });
      const state = await app.dispatch('settings.database', await app.desktopContext(), {});
      expect(state).toMatchObject({ ok: true, value: { inUse: { engine: 'postgres', database: new URL(database.url).pathname.slice(1) } } });
      expect(() => app.sqlite).toThrow('PostgreSQL');
      const ours = await app.dispatch('settings.databaseCheck', await app.desktopContext(), { url: database.url });
      expect(ours).toMatchObject({ ok: true, value: { ok: true, contents: 'ours', orders: 0 } });
      await app.close();
      // A database named at the start (serve's --database, a file) wins over the stored choice.
      app = await createApp({ dataDir: data.dir, log: silentLogger, databaseFile: ':memory:' });
      expect(app.sqlite).toBeDefined();
      await app.close();
    } finally {
      await database.drop();
      data.remove();
    }
  });
});
