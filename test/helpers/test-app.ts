import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../electron/core/app';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { defaultResourcesDir, loadReferenceData, loaderVersion } from '../../electron/core/lists/reference-data';
import { openStores } from '../../electron/core/store/stores';
import { createMigratedTestDatabase, type TemplateContent } from '../../electron/core/store/test-engines';

/** A fresh data folder under the system temp dir, removed by the returned cleanup. */
export function tempDataDir(prefix = 'shipdesk-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The engine the API tests run on: SQLite unless `SHIPDESK_TEST_ENGINE=postgres` (the vitest project `api-postgres`
 * sets it), which needs `SHIPDESK_TEST_POSTGRES`, the URL of a server whose user may create databases
 * (`eval "$(node scripts/test-postgres.mjs)"` starts one).
 */
export const testEngine: 'sqlite' | 'postgres' = process.env.SHIPDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * What an app's first open writes into an empty database, put into the API tests' template once: the sandbox reference
 * data (thousands of points). Loaded into each fresh database instead, it was most of an app's start on PostgreSQL
 * (2–5 s of multi-row INSERTs on a loaded 2-core machine, against 0.2 s for a whole start on SQLite). The app still
 * checks the stored version when it opens, and loads the shipped one when they differ, as it does for a shop.
 */
const firstOpen: TemplateContent = {
  key: `reference ${readFileSync(join(defaultResourcesDir, 'sandbox', 'manifest.json'), 'utf8')} loader ${loaderVersion}`,
  async fill(url) {
    const { opened, stores } = await openStores({ postgres: url, now: 1 });
    try {
      await loadReferenceData(stores.reference, { resourcesDir: defaultResourcesDir, now: 1 });
    } finally {
      await opened.close();
    }
  },
};

/**
 * The database an app under test gets: on PostgreSQL a fresh migrated database of its own on the test server, holding
 * what an app's first open writes (its URL, dropped by `drop`); on SQLite nothing (the app's file in its data folder).
 */
export async function testDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (testEngine === 'sqlite') return { url: undefined, drop: async () => undefined };
  const server = process.env.SHIPDESK_TEST_POSTGRES;
  if (!server) throw new Error('SHIPDESK_TEST_ENGINE=postgres needs SHIPDESK_TEST_POSTGRES (eval "$(node scripts/test-postgres.mjs)" starts a server)');
  return createMigratedTestDatabase(server, firstOpen);
}

/**
 * The real core on a real database (a SQLite file in a temp folder, or a database of its own on the PostgreSQL test
 * server, see `testEngine`), with a hand-driven clock and no background workers. A test that names its own database
 * (`database` or `databaseFile`) gets that one.
 */
export async function createTestApp(options: Partial<AppOptions> = {}) {
  const data = tempDataDir();
  const clock = manualClock();
  const ownDatabase = options.database !== undefined || options.databaseFile !== undefined;
  const database = ownDatabase ? { url: undefined, drop: async () => undefined } : await testDatabase();
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp({ dataDir: data.dir, clock, log: silentLogger, ...(database.url && { database: database.url }), ...options });
  } catch (error) {
    await database.drop();
    data.remove();
    throw error;
  }
  const shop = await app.desktopContext();
  return {
    app,
    clock,
    shop,
    dataDir: data.dir,
    async close() {
      await app.close();
      await database.drop();
      data.remove();
    },
  };
}
