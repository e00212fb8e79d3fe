import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database';
import { DatabaseTooNewError, loadMigrations, migrate } from './migrate';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('database migrations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are numbered without gaps or duplicates', () => {
    const versions = loadMigrations().map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  it('a new data folder gets every migration, recorded in the database', async () => {
    const store = openDatabase({ file: join(dir, 'shipdesk.db'), now: 1000 });
    const recorded = store.sqlite.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual(loadMigrations().map((m) => ({ version: m.version, applied_at: 1000 })));
    expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    await store.close();
  });

  it('opening the same folder again applies nothing twice', async () => {
    const file = join(dir, 'shipdesk.db');
    await openDatabase({ file }).close();
    const sqlite = new Database(file);
    expect(migrate(sqlite, loadMigrations())).toEqual([]);
    sqlite.close();
  });

  it('a database written by a newer ShipDesk is refused with a clear message and left untouched', async () => {
    const file = join(dir, 'shipdesk.db');
    await openDatabase({ file }).close();
    const newer = loadMigrations().length + 1;
    const raw = new Database(file);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(newer, 'from_the_future', 1);
    raw.close();

    expect(() => openDatabase({ file })).toThrow(DatabaseTooNewError);
    expect(() => openDatabase({ file })).toThrow(/newer ShipDesk .*schema \d+.*Update ShipDesk/);
    const after = new Database(file);
    expect(after.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: newer });
    after.close();
  });

  it('a migration that fails leaves no trace of itself', () => {
    const sqlite = new Database(join(dir, 'shipdesk.db'));
    const good = loadMigrations();
    const broken = [...good, { version: good.length + 1, name: 'broken', sql: 'CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;' }];
    expect(() => migrate(sqlite, broken)).toThrow(/no such table/);
    expect(tables(sqlite)).not.toContain('half_done');
    expect(sqlite.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: good.length });
    sqlite.close();
  });

  describe('0001 init', () => {
    it('creates companies, orders, statuses, outbox and the sandbox books', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version === 1));
      expect(tables(sqlite)).toEqual(
        expect.arrayContaining(['companies', 'orders', 'order_statuses', 'outbox', 'sandbox_shipments', 'schema_migrations']),
      );
      sqlite.close();
    });

    it('lets a clientNumber be reused only once its order is canceled or deleted', () => {
      const sqlite = new Database(':memory:');
      migrate(sqlite, loadMigrations().filter((m) => m.version === 1));
      sqlite.prepare("INSERT INTO companies (id, name, api_token, created_at) VALUES (1, 'A', 't', 0)").run();
      const insert = sqlite.prepare(
        `INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name,
           recipient_phone, cod_kopecks, assessed_kopecks, payload, created_at, updated_at)
         VALUES (1, 'N-1', 'p', ?, 'uploading', 0, 'r', '1', 0, 0, '{}', 0, 0)`,
      );
      insert.run('active');
      expect(() => insert.run('active')).toThrow(/UNIQUE/);
      sqlite.prepare("UPDATE orders SET state = 'canceled'").run();
      expect(() => insert.run('active')).not.toThrow();
      sqlite.close();
    });
  });
});
