import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Db, OpenedDatabase, TransactionLock } from './database';
import { DatabaseTooNewError, loadMigrations, type Migration } from './migrate';
import type { Schema } from './schema';

/** PostgreSQL's migrations, beside SQLite's (`migrations/postgres/NNNN_name.sql`, the same numbers from 0045 on). */
export const postgresMigrationsDir = fileURLToPath(new URL('./migrations/postgres/', import.meta.url));

export interface OpenedPostgres {
  db: Db;
  pool: pg.Pool;
  /** The connection URL as given (with its password: pg_dump needs it); `describePostgres` for messages. */
  url: string;
  /** Work to do before the pool ends (a listening connection of its own to close). */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface OpenPostgresOptions {
  url: string;
  migrationsDir?: string;
  now?: number;
  /** Connections in the pool (default 10). */
  max?: number;
}

/** The URL without its password, for messages and logs. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'the PostgreSQL URL (not a valid URL)';
  }
}

/** Whether a `--database` value names PostgreSQL rather than a SQLite file. */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);

const INT8 = 20;
const NUMERIC = 1700;

/** A bigint column's value as a number; one a JS number cannot hold exactly is refused, never rounded. */
function exactNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`PostgreSQL gave the integer ${text}, beyond what a JavaScript number holds exactly`);
  return n;
}

/**
 * Ids, epoch-ms times, kopecks and counts are bigint in PostgreSQL, which pg gives as strings: here they are numbers
 * (exactly, or an error), as SQLite gives them. NUMERIC (sum() of bigints) likewise when whole.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return exactNumber;
    if (oid === NUMERIC) return (text: string) => (/^-?\d+$/.test(text) ? exactNumber(text) : Number(text));
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Any number: the lock every ShipDesk migrating this database takes, so two instances starting at once do not both migrate. */
const MIGRATION_LOCK = 0x5348_4950; // 'SHIP'

/**
 * Applies the migrations the database has not seen, each in its own transaction and recorded in schema_migrations,
 * under an advisory lock. A database written by a newer app is refused before anything is touched.
 */
export async function migratePostgres(pool: pg.Pool, migrations: Migration[], now = Date.now()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const newestKnown = migrations.at(-1)?.version ?? 0;
    const newestApplied = Math.max(0, ...applied);
    if (newestApplied > newestKnown) throw new DatabaseTooNewError(newestApplied, newestKnown);
    const ran: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, now]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`PostgreSQL migration ${migration.version}_${migration.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      ran.push(migration.version);
    }
    return ran;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

/** Connects to the PostgreSQL database at `url` and migrates it; a server that cannot be reached is said plainly. */
export async function openPostgres(options: OpenPostgresOptions): Promise<OpenedPostgres> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10, types, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped must not take the app down; the next query gets a fresh one.
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool, loadMigrations(options.migrationsDir ?? postgresMigrationsDir), options.now);
  } catch (error) {
    await pool.end();
    if (error instanceof DatabaseTooNewError || (error instanceof Error && error.message.startsWith('PostgreSQL migration'))) throw error;
    throw new Error(`Cannot open the PostgreSQL database ${describePostgres(options.url)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const hooks: (() => Promise<void>)[] = [];
  return {
    db,
    pool,
    url: options.url,
    onClose: (hook) => void hooks.push(hook),
    async close() {
      for (const hook of hooks.splice(0)) await hook();
      await db.destroy(); // ends the pool
    },
  };
}

/** PostgreSQL's TransactionLock: a transaction-scoped advisory lock on the key's hash, released at commit or rollback. */
export const advisoryTransactionLock: TransactionLock = async (trx, key) => {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
};

/**
 * What a SQLite store that reads only `db` (engine-neutral Kysely) but still asks for the whole OpenedDatabase is
 * given on PostgreSQL: its `sqlite` refuses at once, so a later raw-SQLite line in such a store fails its PostgreSQL
 * tests rather than misbehaving. (Until those stores ask for `Pick<OpenedDatabase, 'db'>`.)
 */
export function kyselyOnly(opened: OpenedPostgres): OpenedDatabase {
  return {
    db: opened.db,
    get sqlite(): never {
      throw new Error('This store runs on PostgreSQL: it has no SQLite connection');
    },
    close: opened.close,
  };
}
