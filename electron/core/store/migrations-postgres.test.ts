import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from './database';
import { DatabaseTooNewError, loadMigrations } from './migrate';
import { openPostgres, postgresMigrationsDir } from './postgres';
import { createTestDatabase, testPostgresUrl } from './test-engines';

/** Tables and their columns, as each engine lists them: what the two migration folders must agree on. */
async function postgresColumns(url: string): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name",
    );
    const tables = new Map<string, string[]>();
    for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
    return tables;
  } finally {
    await client.end();
  }
}

function sqliteColumns(): Map<string, string[]> {
  const { sqlite } = openDatabase({ file: ':memory:' });
  const names = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  const tables = new Map<string, string[]>();
  for (const name of names) {
    tables.set(name, (sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map((c) => c.name).sort());
  }
  sqlite.close();
  return tables;
}

/** SQLite's own (FTS5 shadow tables, AUTOINCREMENT's counters) and PostgreSQL's own (the points' change counter). */
const engineOnly = (name: string) => name === 'sqlite_sequence' || name.startsWith('orders_search') || name === 'points_generation';

it('every PostgreSQL migration from 0045 on has a SQLite twin of the same number, and the newest is the same', () => {
  const sqlite = loadMigrations().map((m) => m.version);
  const postgres = loadMigrations(postgresMigrationsDir).map((m) => m.version);
  expect(postgres[0]).toBe(45);
  expect(postgres.at(-1)).toBe(sqlite.at(-1));
  expect(sqlite.filter((v) => v >= 45)).toEqual(postgres);
});

describe.skipIf(!testPostgresUrl)('PostgreSQL migrations', () => {
  const url = testPostgresUrl!;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeEach(async () => {
    database = await createTestDatabase(url);
  });
  afterEach(() => database.drop());

  it('a new database gets every migration, recorded, and a second start applies nothing', async () => {
    await (await openPostgres({ url: database.url, now: 1000 })).close();
    const again = await openPostgres({ url: database.url, now: 2000 });
    const { rows } = await again.pool.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(loadMigrations(postgresMigrationsDir).map((m) => ({ version: m.version, name: m.name, applied_at: 1000 })));
    await again.close();
  });

  it('gives the same tables with the same columns as SQLite', async () => {
    await (await openPostgres({ url: database.url })).close();
    const postgres = await postgresColumns(database.url);
    const sqlite = sqliteColumns();
    const shared = (m: Map<string, string[]>) => Object.fromEntries([...m].filter(([name]) => !engineOnly(name)).sort(([a], [b]) => a.localeCompare(b)));
    expect(shared(postgres)).toEqual(shared(sqlite));
  });

  it('a database written by a newer ShipDesk is refused with a clear message and left untouched', async () => {
    await (await openPostgres({ url: database.url })).close();
    const newer = loadMigrations(postgresMigrationsDir).at(-1)!.version + 1;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from_the_future', 1)", [newer]);
    await expect(openPostgres({ url: database.url })).rejects.toThrow(DatabaseTooNewError);
    await expect(openPostgres({ url: database.url })).rejects.toThrow(/newer ShipDesk .*schema \d+.*Update ShipDesk/);
    expect((await client.query('SELECT max(version) AS v FROM schema_migrations')).rows).toEqual([{ v: newer }]);
    await client.end();
  });

  it('a migration that fails leaves no trace of itself and names itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipdesk-pg-migrations-'));
    try {
      writeFileSync(join(dir, '0001_good.sql'), 'CREATE TABLE kept (id bigint PRIMARY KEY);');
      writeFileSync(join(dir, '0002_bad.sql'), 'CREATE TABLE half (id bigint); INSERT INTO nowhere VALUES (1);');
      await expect(openPostgres({ url: database.url, migrationsDir: dir })).rejects.toThrow(/PostgreSQL migration 2_bad failed: .*nowhere/);
      const tables = await postgresColumns(database.url);
      expect([...tables.keys()].sort()).toEqual(['kept', 'schema_migrations']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads bigints as numbers while exact, and refuses one a number cannot hold rather than rounding it', async () => {
    const opened = await openPostgres({ url: database.url });
    try {
      const { rows } = await opened.pool.query('SELECT 9007199254740991::bigint AS big, count(*) AS n, sum(x) AS total FROM (VALUES (2::bigint), (3::bigint)) t(x)');
      expect(rows).toEqual([{ big: 9007199254740991, n: 2, total: 5 }]);
      await expect(opened.pool.query('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(/9007199254740993, beyond what a JavaScript number holds exactly/);
    } finally {
      await opened.close();
    }
  });

  it('a server that does not answer is said plainly, without the password', async () => {
    const nowhere = new URL(database.url);
    nowhere.port = '1';
    nowhere.password = 'secret';
    const refused = openPostgres({ url: nowhere.toString() });
    await expect(refused).rejects.toThrow(/^Cannot open the PostgreSQL database postgres:\/\/[^/]*:1\/shipdesk_test_.*ECONNREFUSED/);
    await expect(refused).rejects.not.toThrow(/secret/);
  });
});
