import type pg from 'pg';
import { describePostgres, openPostgres, type OpenedPostgres } from '../postgres';
import { counted, MigrationRefused } from './refusal';
import { openSqliteSource, sqliteColumns, type SqliteSource } from './source';
import { copiedTables } from './table-plan';
import { inspectPostgres } from './target';
import { compareOrderSample, type SampleResult } from './verify';

export interface CopyProgress {
  table: string;
  /** Rows of the table copied so far, of `total`. */
  done: number;
  total: number;
}

export interface MigrateToPostgresOptions {
  /** The shop's data folder (its shipdesk.db is read, never changed). */
  from: string;
  /** postgres://… of an empty database (or one ShipDesk made and nothing was written to). */
  to: string;
  /** Rows per INSERT (fewer when a table's columns would pass PostgreSQL's 65,535 parameters); default 1,000. */
  batchRows?: number;
  /** Random orders compared through both engines' stores after the copy, beside the first and the last; default 200. */
  sampleSize?: number;
  onProgress?: (progress: CopyProgress) => void;
}

export interface MigrateSummary {
  tables: { name: string; rows: number }[];
  rows: number;
  sample: SampleResult;
  /** The schema version of the older ShipDesk database the copy went into, brought up to date first; null: it was empty. */
  upgradedFrom: number | null;
}

const maxParameters = 65_535;

/**
 * Copies a shop's SQLite database into PostgreSQL in ONE transaction: either every row is there (row counts checked
 * equal per table before the commit) or none is, and the target is left as it was. Rows are streamed from SQLite and
 * written in batches (memory stays bounded by a batch). Identity sequences are moved past the highest ids. After the
 * commit, a sample of orders read through both engines' orders stores must compare equal.
 */
export async function migrateToPostgres(options: MigrateToPostgresOptions): Promise<MigrateSummary> {
  const source = openSqliteSource(options.from);
  try {
    const upgradedFrom = await checkTarget(options.to, source.version);
    const target = await openPostgres({ url: options.to, max: 2 });
    try {
      const tables = await copyAll(source, target, options);
      const sample = await compareOrderSample(source, target, options.sampleSize ?? 200);
      return { tables, rows: tables.reduce((n, t) => n + t.rows, 0), sample, upgradedFrom };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * Refuses a target that holds anything, another program's tables, or a newer ShipDesk's schema; answers the schema
 * version of an older ShipDesk's empty database (brought up to date when opened), else null.
 */
async function checkTarget(url: string, sourceVersion: number) {
  const { contents } = await inspectPostgres(url);
  const where = describePostgres(url);
  if (contents.kind === 'other') {
    throw new MigrationRefused(`${where} holds tables ShipDesk did not make (${contents.tables.slice(0, 5).join(', ')}${contents.tables.length > 5 ? ', …' : ''}): migrate into an empty database.`);
  }
  if (contents.kind === 'ours' && contents.hasRows) {
    throw new MigrationRefused(`${where} already holds ShipDesk data (${counted(contents.orders, 'order', 'orders')}): migrate into an empty database; nothing was changed.`);
  }
  if (contents.kind === 'ours' && contents.version > sourceVersion) {
    throw new MigrationRefused(`${where} holds the schema of a newer ShipDesk (version ${contents.version}; the data folder and this ShipDesk are at ${sourceVersion}): migrate with that version, or into an empty database.`);
  }
  // An older ShipDesk's empty database: opening it applies this version's migrations (the tables it lacks) first.
  return contents.kind === 'ours' && contents.version < sourceVersion ? contents.version : null;
}

/** The copied tables, parents before children (by the target's foreign keys). */
async function copyOrder(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return; // a table referring to itself keeps its place
    visiting.add(table);
    for (const edge of rows) if (edge.child === table && edge.parent !== table) visit(edge.parent);
    ordered.push(table);
  };
  for (const table of copiedTables) visit(table);
  return ordered.filter((t) => (copiedTables as string[]).includes(t));
}

async function copyAll(source: SqliteSource, target: OpenedPostgres, options: MigrateToPostgresOptions) {
  const client = await target.pool.connect();
  try {
    await client.query('BEGIN');
    const copied: { name: string; rows: number }[] = [];
    for (const table of await copyOrder(client)) {
      const rows = await copyTable(source, client, table, options);
      const there = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      if (there.rows[0].n !== rows) throw new MigrationRefused(`${table}: ${rows} rows read from SQLite but ${there.rows[0].n} in PostgreSQL; nothing was kept.`);
      copied.push({ name: table, rows });
    }
    await moveSequences(client);
    await client.query('COMMIT');
    return copied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Streams one table's rows from SQLite into PostgreSQL in batches; answers how many. */
async function copyTable(source: SqliteSource, client: pg.PoolClient, table: string, options: MigrateToPostgresOptions): Promise<number> {
  const columns = await postgresColumns(client, table);
  const fromColumns = sqliteColumns(source.sqlite, table);
  const differ = columns.filter((c) => !fromColumns.includes(c)).concat(fromColumns.filter((c) => !columns.includes(c)));
  if (differ.length) throw new MigrationRefused(`${table}: the engines' columns differ (${differ.join(', ')}); nothing was kept.`);
  const total = (source.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const perBatch = Math.max(1, Math.min(options.batchRows ?? 1000, Math.floor(maxParameters / columns.length)));
  const list = columns.map((c) => `"${c}"`).join(', ');
  const read = source.sqlite.prepare(`SELECT ${list} FROM ${table}`).raw(true);
  let batch: unknown[][] = [];
  let done = 0;
  const flush = async () => {
    if (!batch.length) return;
    const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
    await client.query(`INSERT INTO ${table} (${list}) VALUES ${values}`, batch.flat());
    done += batch.length;
    batch = [];
    options.onProgress?.({ table, done, total });
  };
  options.onProgress?.({ table, done: 0, total });
  for (const row of read.iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length === perBatch) await flush();
  }
  await flush();
  return done;
}

/** The table's columns PostgreSQL takes values for (generated ones excluded). */
async function postgresColumns(client: pg.PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/** Each identity column's sequence set past the table's highest value, so the next insert gets a new id. */
async function moveSequences(client: pg.PoolClient) {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  for (const { table_name: table, column_name: column } of rows) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max("${column}"), 0) + 1, false) FROM ${table}`, [table, column]);
  }
}
