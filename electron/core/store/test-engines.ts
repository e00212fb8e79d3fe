import pg from 'pg';
import { openDatabase, type Db } from './database';
import { openPostgres } from './postgres';
import { openPostgresStores, openSqliteStores, type PostgresStores } from './stores';

/** Stores on an empty database of one engine, for the store tests; `seed` writes what another aggregate's store would. */
export interface TestEngine {
  name: string;
  open(): Promise<TestStores>;
}

export interface TestStores {
  /** Every store both engines have (the orders store has its own tests). */
  stores: PostgresStores;
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
    return { stores: openSqliteStores(opened), ...seeding(opened.db), close: () => opened.close() };
  },
};

/**
 * The PostgreSQL server the tests may use (`node scripts/test-postgres.mjs` starts one; `.ci/run` does in CI):
 * a URL whose user may create databases. Unset, the store tests run on SQLite only (npm test says so in one line).
 */
export const testPostgresUrl = process.env.SHIPDESK_TEST_POSTGRES || undefined;

let admin: pg.Pool | undefined;
let made = 0;

/** An empty database of its own on the test server (not migrated): its URL, and `drop` to remove it. */
export async function createTestDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  admin ??= new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
  const pool = admin;
  const name = `shipdesk_test_${process.pid}_${++made}`;
  await pool.query(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: async () => void (await pool.query(`DROP DATABASE ${name} WITH (FORCE)`)) };
}

/** A database of its own for each test, migrated on open and dropped on close. */
function postgresEngine(url: string): TestEngine {
  return {
    name: 'postgres',
    async open() {
      const database = await createTestDatabase(url);
      try {
        const opened = await openPostgres({ url: database.url, max: 4 });
        return {
          stores: openPostgresStores(opened),
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
export async function twoCompanies(stores: Pick<PostgresStores, 'accounts'>) {
  const shop = await stores.accounts.createCompany({ name: 'My shop', apiToken: 'shop-token', isDesktop: true, createdAt: 1 });
  const other = await stores.accounts.createCompany({ name: 'Other', apiToken: 'other-token', isDesktop: false, createdAt: 1 });
  return { shop, other };
}

/** A new import of the company, as an upload makes it. */
export const newImport = (companyId: number, at = 1, status: 'staged' | 'queued' | 'creating' = 'creating') =>
  ({ companyId, origin: 'desktop', mode: 'async', status, fileName: 'orders.xlsx', fileSize: 100, settings: null, errorsToFile: false, asDrafts: false, at }) as const;
