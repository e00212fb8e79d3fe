import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { createApp } from '../app';
import { silentLogger } from '../logger';

describe('backups', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const value = async (name: string, input: unknown = {}): Promise<any> => {
    const result = await call(name, input);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const create = (clientNumber: string) => env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber)));
  const ordersIn = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT client_number FROM orders ORDER BY id').all() as { client_number: string }[]).map((r) => r.client_number);
    } finally {
      db.close();
    }
  };

  it('a backup made while the app works is a whole database with everything written so far', async () => {
    await create('BK-1');
    const backup = await value('backup.now');
    expect(backup.name).toMatch(/^shipdesk-\d{8}-\d{6}\.db$/);
    expect(backup.path).toBe(join(env.dataDir, 'backups', backup.name));
    expect(ordersIn(backup.path)).toEqual(['BK-1']);
    const second = await value('backup.now'); // same second: a name of its own
    expect(second.name).not.toBe(backup.name);
    expect((await value('backup.list')).map((b: any) => b.name)).toEqual(expect.arrayContaining([backup.name, second.name]));
  });

  it('a restore is checked, staged, and put in place at the next start with the old database kept', async () => {
    await create('BEFORE');
    const backup = await value('backup.now');
    await create('AFTER');
    const staged = await value('backup.restore', { file: backup.name });
    expect(staged).toMatchObject({ restartRequired: true, staged: join(env.dataDir, 'restore-pending.db') });
    expect((await value('settings.get')).pendingRestore).toBe(staged.staged);
    await env.app.close();

    const restarted = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger });
    try {
      const ctx = await restarted.desktopContext();
      const list = await restarted.services.orders.list(ctx, { limit: 10, offset: 0 });
      expect(list.rows.map((r) => r.clientNumber)).toEqual(['BEFORE']);
      expect(existsSync(join(env.dataDir, 'restore-pending.db'))).toBe(false);
      const kept = readdirSync(join(env.dataDir, 'backups')).filter((n) => n.startsWith('pre-restore-'));
      expect(kept).toHaveLength(1);
      expect(ordersIn(join(env.dataDir, 'backups', kept[0]))).toEqual(['BEFORE', 'AFTER']);
    } finally {
      await restarted.close();
    }
  });

  it('refuses files that are not ShipDesk databases or come from a newer version', async () => {
    const junk = join(env.dataDir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text that is long enough to look like a file');
    expect(await call('backup.restore', { file: junk })).toMatchObject({ ok: false, error: { code: '040000', description: expect.stringMatching(/not a readable SQLite/) } });

    const foreign = join(env.dataDir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE t (x)').close();
    expect(await call('backup.restore', { file: foreign })).toMatchObject({ ok: false, error: { description: expect.stringMatching(/schema_migrations/) } });

    const newer = join(env.dataDir, 'newer.db');
    const backup = await value('backup.now');
    copyFileSync(backup.path, newer);
    const raw = new Database(newer);
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)").run();
    raw.close();
    expect(await call('backup.restore', { file: newer })).toMatchObject({ ok: false, error: { description: expect.stringMatching(/newer ShipDesk/) } });

    expect(await call('backup.restore', { file: 'shipdesk-19990101-000000.db' })).toMatchObject({ ok: false, error: { code: '040016' } });
    expect(await call('backup.restore', { file: '../shipdesk.db' })).toMatchObject({ ok: false });
    expect(existsSync(join(env.dataDir, 'restore-pending.db'))).toBe(false);
  });

  it('a staged restore can be called off', async () => {
    const backup = await value('backup.now');
    await value('backup.restore', { file: backup.name });
    expect(await value('backup.cancelRestore')).toEqual({ canceled: true });
    expect((await value('settings.get')).pendingRestore).toBeNull();
  });
});
