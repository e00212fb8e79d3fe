import { createHash } from 'node:crypto';
import pg from 'pg';
import { vi } from 'vitest';
import { openDatabase, type Db } from './database';
import { loadMigrations } from './migrate';
import { openPostgres, postgresMigrationsDir } from './postgres';
import { openPostgresStores, openSqliteStores, type Stores } from './stores';

/** Stores on an empty database of one engine, for the store tests; `seed` writes what another aggregate's store would. */
export interface TestEngine {
  name: string;
  open(): Promise<TestStores>;
}

export interface TestStores {
  /** Every aggregate's store. */
  stores: Stores;
  /** The database under the stores, for tests that write what no store of theirs writes (the orders search's rows). */
  db: Db;
  /** An order of the company with one recorded status (the orders aggregate's write); answers the status id. */
  seedStatus(companyId: number, clientNumber: string, statusKey?: string): Promise<number>;
  /** An order of the company as the orders aggregate keeps it (its service, state, numbers and payload); answers its id. */
  seedOrder(companyId: number, order: SeedOrder): Promise<number>;
  close(): Promise<void>;
}

export interface SeedOrder {
  clientNumber: string;
  providerKey: string;
  state?: 'active' | 'canceled' | 'deleted';
  providerNumber?: string | null;
  additionalProviderNumber?: string | null;
  payload?: unknown;
}

/** What the orders aggregate's store would have written, straight into the tables (the same Kysely on every engine). */
function seeding(db: Db): Pick<TestStores, 'seedStatus' | 'seedOrder'> {
  return {
    async seedStatus(companyId, clientNumber, statusKey = 'uploading') {
      const order = await db
        .insertInto('orders')
        .values({
          company_id: companyId, client_number: clientNumber, provider_key: 'sandbox', provider_connect_id: null, state: 'active', status_key: statusKey,
          status_description: null, status_description_message: null, status_changed_at: 1, provider_number: null, additional_provider_number: null,
          return_provider_number: null, barcode: null, tracking_url: null, recipient_name: 'Иван', recipient_phone: '+79990000000', recipient_city: null,
          cod_kopecks: 0, assessed_kopecks: 0, payload: '{}', created_at: 1, updated_at: 1, canceled_at: null, deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const status = await db
        .insertInto('order_statuses')
        .values({
          order_id: order.id, company_id: companyId, key: statusKey, description: null, description_message: null, created_at: 2, provider_code: null,
          provider_name: null, provider_description: null, created_provider: null, error_code: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return status.id;
    },
    async seedOrder(companyId, o) {
      const { id } = await db
        .insertInto('orders')
        .values({
          company_id: companyId, client_number: o.clientNumber, provider_key: o.providerKey, provider_connect_id: null, state: o.state ?? 'active', status_key: 'uploaded',
          status_description: null, status_description_message: null, status_changed_at: 1, provider_number: o.providerNumber ?? null,
          additional_provider_number: o.additionalProviderNumber ?? null, return_provider_number: null, barcode: null, tracking_url: null, recipient_name: 'Иван',
          recipient_phone: '+79990000000', recipient_city: null, cod_kopecks: 0, assessed_kopecks: 0, payload: JSON.stringify(o.payload ?? {}), created_at: 1, updated_at: 1,
          canceled_at: o.state === 'canceled' ? 1 : null, deleted_at: o.state === 'deleted' ? 1 : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },
  };
}

const sqliteEngine: TestEngine = {
  name: 'sqlite',
  async open() {
    const opened = openDatabase({ file: ':memory:' });
    return { stores: openSqliteStores(opened), db: opened.db, ...seeding(opened.db), close: () => opened.close() };
  },
};

/**
 * The PostgreSQL server the tests may use (`node scripts/test-postgres.mjs` starts one; `.ci/run` does in CI):
 * a URL whose user may create databases. Unset, the store tests run on SQLite only (npm test says so in one line).
 */
export const testPostgresUrl = process.env.SHIPDESK_TEST_POSTGRES || undefined;

/** A PostgreSQL suite's title, saying why it was skipped only when it is (`describe.skipIf(!testPostgresUrl)`). */
export const onPostgres = (title: string) =>
  testPostgresUrl ? title : `${title} (skipped: SHIPDESK_TEST_POSTGRES is not set; \`eval "$(node scripts/test-postgres.mjs)"\` sets it)`;

/**
 * A store test file's tests and hooks on a PostgreSQL server may take this long (vitest's 5 s default is too tight for a
 * database copied per test and pooled round trips on a loaded 2-core CI machine); set for the importing file only.
 */
export const postgresTestTimeout = 30_000;
if (testPostgresUrl) vi.setConfig({ testTimeout: postgresTestTimeout, hookTimeout: postgresTestTimeout });

let admin: pg.Pool | undefined;
let made = 0;
const adminPool = (url: string) => (admin ??= new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true }));

/**
 * An empty database of its own on the test server, or a copy of `template`: its URL, and `drop` to remove it.
 * (FILE_COPY: with the test cluster's fsync off, the quicker way to make a small database.)
 */
export async function createTestDatabase(url: string, template = 'template1'): Promise<{ url: string; drop(): Promise<void> }> {
  const pool = adminPool(url);
  const name = `shipdesk_test_${process.pid}_${++made}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
      break;
    } catch (error) {
      // 55006: a session of the template's making still ending on the server; it is gone a moment later.
      if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: async () => void (await pool.query(`DROP DATABASE ${name} WITH (FORCE)`)) };
}

const templates = new Map<string, Promise<string>>();

/** What a template holds beyond the migrations: its name's part (a changed content gets a new one) and how it is filled. */
export interface TemplateContent {
  key: string;
  fill(url: string): Promise<void>;
}

/**
 * A database migrated (and filled with `content`) once and copied for every test, named by its migrations and content.
 * Made under a lock; ready once it takes no more connections (nothing may be connected to a database being copied,
 * and autovacuum leaves such a database alone), so test processes starting together make it once.
 */
function templateDatabase(url: string, content?: TemplateContent): Promise<string> {
  const migrations = loadMigrations(postgresMigrationsDir);
  const name = `shipdesk_template_${createHash('sha256').update(JSON.stringify([migrations, content?.key ?? null])).digest('hex').slice(0, 16)}`;
  const known = templates.get(name);
  if (known) return known;
  const made = (async () => {
    const lock = await adminPool(url).connect();
    try {
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const found = await lock.query<{ datallowconn: boolean }>('SELECT datallowconn FROM pg_database WHERE datname = $1', [name]);
      if (found.rows[0]?.datallowconn === false) return name;
      // One a process stopped while making it: made again.
      if (found.rowCount) await lock.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await lock.query(`CREATE DATABASE ${name} STRATEGY FILE_COPY`);
      const own = new URL(url);
      own.pathname = `/${name}`;
      await (await openPostgres({ url: own.toString(), now: 1 })).close();
      await content?.fill(own.toString());
      await lock.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      // The closed pools' sessions end on the server a moment later.
      await lock.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
      return name;
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
      lock.release();
    }
  })().catch((error: unknown) => {
    templates.delete(name);
    throw error;
  });
  templates.set(name, made);
  return made;
}

/**
 * A migrated database of its own on the test server: a copy of a template migrated once (opening it migrates nothing),
 * holding `content` too when given (the API tests' holds what an app's first open writes, see test/helpers/test-app.ts).
 */
export async function createMigratedTestDatabase(url: string, content?: TemplateContent): Promise<{ url: string; drop(): Promise<void> }> {
  return createTestDatabase(url, await templateDatabase(url, content));
}

/** A database of its own for each test, dropped on close. */
function postgresEngine(url: string): TestEngine {
  return {
    name: 'postgres',
    async open() {
      const database = await createMigratedTestDatabase(url);
      try {
        const opened = await openPostgres({ url: database.url, max: 4 });
        return {
          stores: openPostgresStores(opened),
          db: opened.db,
          ...seeding(opened.db),
          async close() {
            await opened.close();
            await database.drop();
          },
        };
      } catch (error) {
        await database.drop();
        throw error;
      }
    },
  };
}

/** Every engine the store tests run on. */
export const testEngines: TestEngine[] = [sqliteEngine, ...(testPostgresUrl ? [postgresEngine(testPostgresUrl)] : [])];

/** The two companies most store tests start from: the shop (desktop) and an API client. */
export async function twoCompanies(stores: Pick<Stores, 'accounts'>) {
  const shop = await stores.accounts.createCompany({ name: 'My shop', apiToken: 'shop-token', isDesktop: true, createdAt: 1 });
  const other = await stores.accounts.createCompany({ name: 'Other', apiToken: 'other-token', isDesktop: false, createdAt: 1 });
  return { shop, other };
}

/** A new import of the company, as an upload makes it. */
export const newImport = (companyId: number, at = 1, status: 'staged' | 'queued' | 'creating' = 'creating') =>
  ({ companyId, origin: 'desktop', mode: 'async', status, fileName: 'orders.xlsx', fileSize: 100, settings: null, errorsToFile: false, asDrafts: false, at }) as const;
