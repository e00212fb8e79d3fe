import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { inspectPostgres } from '../../electron/core/store/migrate-engine/target';
import { loadMigrations } from '../../electron/core/store/migrate';
import { openPostgres, postgresMigrationsDir } from '../../electron/core/store/postgres';
import { runMigrateCli } from '../../electron/core/store/migrate-engine/cli';
import { createTestDatabase, testPostgresUrl, onPostgres } from '../../electron/core/store/test-engines';
import { databaseFile } from '../../electron/core/paths';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { orderPayload } from '../helpers/payloads';
import { tempDataDir } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** Runs the command as `npm run migrate-to-postgres` would, catching what it writes. */
async function migrate(from: string, to: string) {
  let out = '';
  let err = '';
  const code = await runMigrateCli(['--from', from, '--to', to], { write: (s: string) => ((out += s), true) }, { write: (s: string) => ((err += s), true) });
  return { code, out, err };
}

const fileHash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * A shop's data folder made through the app on SQLite, migrated into PostgreSQL, then served from there: the same
 * orders over HTTP, the same token, the same connection secret. Needs a server: `eval "$(node scripts/test-postgres.mjs)"`.
 */
describe.skipIf(!testPostgresUrl)(onPostgres('npm run migrate-to-postgres'), () => {
  const data = tempDataDir('shipdesk-migrate-');
  let database: { url: string; drop(): Promise<void> };
  let server: TestServer | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(testPostgresUrl!);
  });
  afterAll(async () => {
    await server?.close();
    await database.drop();
    data.remove();
  });

  it('copies a shop made through the app; the app on PostgreSQL serves the same orders to the same token; a second run into the now full database is refused', async () => {
    // The shop on SQLite, everything made over the interface.
    server = await startTestServer({ dataDir: data.dir });
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await server.call('POST', '/orders', { body: orderPayload(`MIG-${n}`), token: server.shopToken });
      expect(created.status).toBe(200);
      ids.push(created.json.orderId);
    }
    await server.app.outbox.drain(); // registered: statuses beyond the first
    expect((await server.command('orders.cancel', { orderId: Number(ids[2]) })).status).toBe(200);
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('MIG-IMP-1'), sampleOrder('MIG-IMP-2')], { itemsNewRow: true });
    const imported = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }), token: server.shopToken });
    expect(imported.status, imported.text).toBe(200);
    ids.push(...imported.json.resultItems.map((r: { orderId: number }) => String(r.orderId)));
    expect((await server.command('drafts.save', { data: { order: { clientNumber: 'MIG-DRAFT' } } })).json).toMatchObject({ ok: true });
    const connection = await server.command('connections.create', { providerKey: 'fivepost', name: '5Post', baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'ключ-5post-secret' }, settings: { warehouseId: 'W-1' } });
    expect(connection.json).toMatchObject({ ok: true });
    expect((await server.command('users.create', { name: 'Анна', password: 'упаковка-2026' })).status).toBe(200);

    const before = new Map<string, unknown>();
    for (const id of ids) before.set(id, (await server.call('GET', `/v1/orders/${id}`, { token: server!.shopToken })).json);
    const list = (await server.command('orders.list', {})).json;
    expect(list.value.rows).toHaveLength(5);
    const history = (await server.call('GET', `/v1/orders/${ids[0]}/statusHistory`, { token: server.shopToken })).json;
    expect(history.rows.length).toBeGreaterThan(1);
    const secretRow = await server.app.db.selectFrom('provider_connections').select('credentials').executeTakeFirstOrThrow();
    expect(secretRow.credentials).not.toContain('ключ');
    await server.close();
    server = undefined;
    const source = databaseFile(data.dir);
    const hash = fileHash(source);

    const run = await migrate(data.dir, database.url);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^Migrated \d+ rows of 31 tables to postgres:\/\/.*: row counts equal, 5 sampled orders read the same on both\.\n$/);
    expect(run.out).not.toContain(new URL(database.url).password || '\u0000');
    expect(run.err).toMatch(/^orders: 5\/5 rows \(100%\)$/m);
    expect(fileHash(source)).toBe(hash); // the source folder's database is read, never written

    // The app on PostgreSQL, the same data folder (its secrets key): the same answers.
    server = await startTestServer({ dataDir: data.dir, database: database.url });
    for (const id of ids) expect((await server.call('GET', `/v1/orders/${id}`, { token: server!.shopToken })).json, id).toEqual(before.get(id));
    expect((await server.command('orders.list', {})).json).toEqual(list);
    expect((await server.call('GET', `/v1/orders/${ids[0]}/statusHistory`, { token: server.shopToken })).json).toEqual(history);
    expect((await server.call('GET', `/v1/orders/${ids[0]}`, { token: 'wrong-token-123' })).status).toBe(401);
    expect((await server.command('drafts.list')).json.value.rows.map((d: { clientNumber: string | null }) => d.clientNumber)).toEqual(['MIG-DRAFT']);
    const connections = (await server.command('connections.list')).json.value;
    expect(connections).toMatchObject([{ providerKey: 'fivepost', name: '5Post' }]);
    const stored = await server.app.db.selectFrom('provider_connections').select('credentials').executeTakeFirstOrThrow();
    expect(stored.credentials).toBe(secretRow.credentials);
    // The packer signs in with the password set on SQLite; new rows get new ids (sequences moved past the copied ones).
    expect((await server.command('auth.signIn', { name: 'Анна', password: 'упаковка-2026' }, null)).status).toBe(200);
    const next = await server.call('POST', '/orders', { body: orderPayload('MIG-AFTER'), token: server.shopToken });
    expect(next.status, next.text).toBe(200);
    expect(Number(next.json.orderId)).toBeGreaterThan(Math.max(...ids.map(Number)));
    await server.close();
    server = undefined;

    const again = await migrate(data.dir, database.url);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^Not migrated: postgres:\/\/.* already holds ShipDesk data \(6 orders\): migrate into an empty database; nothing was changed\.\n$/);
  }, 180_000); // a whole shop's story: two app starts, an import, the copy (30 s is too tight on a loaded 2-core machine)

  it('a shop of one order: what it prints counts in the right form (1 sampled order, 1 order)', async () => {
    const one = tempDataDir('shipdesk-migrate-one-');
    const target = await createTestDatabase(testPostgresUrl!);
    try {
      const shop = await startTestServer({ dataDir: one.dir });
      expect((await shop.call('POST', '/orders', { body: orderPayload('MIG-ONE'), token: shop.shopToken })).status).toBe(200);
      await shop.close();
      const run = await migrate(one.dir, target.url);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(/ tables to postgres:\/\/.*: row counts equal, 1 sampled order read the same on both\.\n$/);
      expect(run.err).toMatch(/^orders: 1\/1 row \(100%\)$/m);
      const again = await migrate(one.dir, target.url);
      expect(again.err).toMatch(/ already holds ShipDesk data \(1 order\): migrate into an empty database/);
    } finally {
      await target.drop();
      one.remove();
    }
  }, 120_000);
});

/** A ShipDesk database on PostgreSQL as an older version left it: its first schema (0045) only. */
async function olderShipDeskDatabase(url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-old-migrations-'));
  try {
    copyFileSync(join(postgresMigrationsDir, '0045_initial_schema.sql'), join(dir, '0045_initial_schema.sql'));
    return await openPostgres({ url, migrationsDir: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!testPostgresUrl)(onPostgres('npm run migrate-to-postgres into a database an older or newer ShipDesk made'), () => {
  const data = tempDataDir('shipdesk-migrate-versions-');
  const databases: { url: string; drop(): Promise<void> }[] = [];
  const database = async () => {
    databases.push(await createTestDatabase(testPostgresUrl!));
    return databases.at(-1)!.url;
  };
  beforeAll(async () => {
    await (await createApp({ dataDir: data.dir, log: silentLogger })).close(); // the shop's folder, at this version
  });
  afterAll(async () => {
    for (const d of databases) await d.drop();
    data.remove();
  });

  it("an older ShipDesk's empty database is ShipDesk's (not another program's) though it lacks newer tables, and is brought up to date and filled", async () => {
    const lacking = await olderShipDeskDatabase(await database());
    // refresh_runs stands for a table a later version adds: the older database does not have it
    await lacking.pool.query('DROP TABLE refresh_runs');
    await lacking.close();
    expect((await inspectPostgres(databases[0].url)).contents).toEqual({ kind: 'ours', version: 45, hasRows: false, orders: 0 });

    const older = await database();
    await (await olderShipDeskDatabase(older)).close();
    const run = await migrate(data.dir, older);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^Migrated \d+ rows of \d+ tables to postgres:\/\/.* \(it held an empty database of an older ShipDesk, schema version 45: brought up to this version first\) in /);
    const after = await inspectPostgres(older);
    expect(after.contents).toMatchObject({ kind: 'ours', version: loadMigrations(postgresMigrationsDir).at(-1)!.version, hasRows: true });
  });

  it("a newer ShipDesk's database is refused with what to do, and left as it was", async () => {
    const newer = await database();
    const opened = await openPostgres({ url: newer });
    await opened.pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from_a_newer_shipdesk', 1)");
    await opened.close();
    const run = await migrate(data.dir, newer);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^Not migrated: postgres:\/\/.* holds the schema of a newer ShipDesk \(version 9999; the data folder and this ShipDesk are at \d+\): migrate with that version, or into an empty database\.\n$/);
    expect((await inspectPostgres(newer)).contents).toEqual({ kind: 'ours', version: 9999, hasRows: false, orders: 0 });
  });
});
