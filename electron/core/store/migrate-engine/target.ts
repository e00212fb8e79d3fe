import pg from 'pg';
import { describePostgres } from '../postgres';
import { copiedTables } from './table-plan';

/** What a PostgreSQL database holds, as far as ShipDesk is concerned. */
export type TargetContents =
  /** No tables at all: ShipDesk may make its schema there. */
  | { kind: 'empty' }
  /** ShipDesk's schema at `version` (an older ShipDesk's may lack newer tables); `hasRows`: whether any of its tables has a row. */
  | { kind: 'ours'; version: number; hasRows: boolean; orders: number }
  /** Tables ShipDesk did not make (another program's database). */
  | { kind: 'other'; tables: string[] };

export interface TargetInspection {
  /** The server's version as it says it, e.g. "16.4 (Debian 16.4-1)". */
  serverVersion: string;
  /** Major version number (e.g. 16). */
  serverMajor: number;
  contents: TargetContents;
}

/** Tables every ShipDesk database on PostgreSQL has had since its first schema (0045). */
const shipDeskCore = ['schema_migrations', 'companies', 'orders', 'order_statuses', 'outbox'];

/** The oldest PostgreSQL the schema is written for (identity columns, pg_trgm, CREATE DATABASE … STRATEGY in the tests). */
export const minimumPostgresMajor = 15;

/** Connects once to `url` and reads the server's version and what the database holds; the connection is closed after. */
export async function inspectPostgres(url: string): Promise<TargetInspection> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot connect to ${describePostgres(url)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    const version = await client.query<{ server_version: string; server_version_num: string }>(
      "SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS server_version_num",
    );
    const serverVersion = version.rows[0].server_version;
    const serverMajor = Math.floor(Number(version.rows[0].server_version_num) / 10_000);
    const tables = (
      await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
      )
    ).rows.map((r) => r.table_name);
    if (tables.length === 0) return { serverVersion, serverMajor, contents: { kind: 'empty' } };
    // ShipDesk's by its migrations' record and the tables of its first schema; an older ShipDesk's lacks the tables
    // later versions add (opening it with this version's migrations makes them).
    if (!shipDeskCore.every((t) => tables.includes(t))) return { serverVersion, serverMajor, contents: { kind: 'other', tables } };
    const newest = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    const anyRows = copiedTables
      .filter((t) => tables.includes(t))
      .map((t) => `SELECT 1 FROM ${t}`)
      .join(' UNION ALL ');
    const rows = await client.query(`SELECT EXISTS (${anyRows}) AS any`);
    const orders = await client.query<{ n: string }>('SELECT count(*) AS n FROM orders');
    return {
      serverVersion,
      serverMajor,
      contents: { kind: 'ours', version: newest.rows[0].version ?? 0, hasRows: rows.rows[0].any === true, orders: Number(orders.rows[0].n) },
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
