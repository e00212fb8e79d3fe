import { sql, type SqlBool } from 'kysely';
import type { Db } from '../database';
import { postgresText } from '../filter-sql';
import type { OpenedPostgres } from '../postgres';
import { createReferenceStore, type PreparedDataset } from './queries';
import type { ReferenceStore, StoredDataset } from './reference-store';

/** PostgreSQL takes at most 65,535 bound values per statement. */
const MAX_PARAMETERS = 65_535;

/** LIKE's wildcards and escape character taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Replaces a dataset's rows inside the caller's transaction: multi-row INSERTs as large as the protocol allows. */
async function writeDataset(trx: Db, source: string, prepared: PreparedDataset) {
  for (const [table, { columns, values }] of Object.entries(prepared)) {
    await sql`DELETE FROM ${sql.table(table)} WHERE source = ${source}`.execute(trx);
    const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)));
    const names = sql.join(columns.map((c) => sql.ref(c)));
    for (let i = 0; i < values.length; i += perInsert) {
      const rows = values.slice(i, i + perInsert).map((row) => sql`(${sql.join(row)})`);
      await sql`INSERT INTO ${sql.table(table)} (${names}) VALUES ${sql.join(rows)}`.execute(trx);
    }
  }
  // Fresh statistics let the planner pick the city index for a small city and the provider index for a big one.
  await sql`ANALYZE points, tariffs, provider_services`.execute(trx);
}

async function storedDataset(db: Db, dataset: string): Promise<StoredDataset | null> {
  const row = await db.selectFrom('reference_data').select(['version', 'row_count']).where('dataset', '=', dataset).executeTakeFirst();
  return row ? { version: row.version, points: row.row_count } : null;
}

/**
 * How long this instance trusts its last read of the points' counter: another instance's change to points is
 * seen within this (the cached `/lists/points` pages), without a round trip per request.
 */
export const POSTGRES_POINTS_VERSION_TRUST_MS = 250;

/**
 * PostgreSQL's reference store: the shared Kysely queries, with the picker's search on the folded text by
 * `LIKE '%word%'` (a pg_trgm index serves it), filters folding with built-ins (filter-sql's postgresText),
 * and the points' version from the counter the schema's trigger keeps.
 */
export function createPostgresReferenceStore({ db }: OpenedPostgres): ReferenceStore {
  return createReferenceStore(db, {
    text: postgresText,
    searchHas: (word) => sql<SqlBool>`search_text LIKE ${`%${likeLiteral(word)}%`}`,

    async pointsVersion() {
      const { rows } = await sql<{ n: number }>`SELECT n FROM points_generation`.execute(db);
      return String(rows[0]?.n ?? 0);
    },
    pointsVersionTrustMs: POSTGRES_POINTS_VERSION_TRUST_MS,

    storedDataset: (dataset) => storedDataset(db, dataset),

    loadDataset: (dataset, version, prepared, now) =>
      db.transaction().execute(async (trx) => {
        // A second instance starting on the same database waits here, then sees the version and skips.
        await sql`LOCK TABLE reference_data IN EXCLUSIVE MODE`.execute(trx);
        if ((await storedDataset(trx, dataset))?.version === version) return false;
        await writeDataset(trx, dataset, prepared);
        const record = { version, row_count: prepared.points.values.length, loaded_at: now };
        await trx
          .insertInto('reference_data')
          .values({ dataset, ...record })
          .onConflict((oc) => oc.column('dataset').doUpdateSet(record))
          .execute();
        return true;
      }),

    replaceDataset: (dataset, prepared) => db.transaction().execute((trx) => writeDataset(trx, dataset, prepared)),
  });
}
