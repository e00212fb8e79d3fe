import { sql, type SqlBool } from 'kysely';
import type { OpenedDatabase } from '../database';
import { registerFold, sqliteText } from '../filter-sql';
import { createReferenceStore, type PreparedDataset } from './queries';
import type { ReferenceStore } from './reference-store';

export function createSqliteReferenceStore({ db, sqlite }: OpenedDatabase): ReferenceStore {
  // The text conditions of `filter` fold their column through it (lower case, ё → е).
  registerFold(sqlite);
  // Commits by other connections (another process on the same folder) change it; this connection's own point
  // writes the store counts itself (queries.ts). One prepared statement, no table read.
  const dataVersion = sqlite.prepare('SELECT data_version FROM pragma_data_version()').pluck();

  /**
   * Replaces a dataset's rows (the caller holds the transaction). Prepared statements in a loop: 6,000
   * shipped points in about 60 ms at every first start, 100,000 generated ones in the points benchmark.
   */
  function writeDataset(source: string, prepared: PreparedDataset) {
    for (const [table, { columns, values }] of Object.entries(prepared)) {
      sqlite.prepare(`DELETE FROM ${table} WHERE source = ?`).run(source);
      if (values.length === 0) continue;
      const insert = sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of values) insert.run(row);
    }
    // Fresh statistics let the planner pick the city index for a small city and the provider index for a big one.
    sqlite.exec('ANALYZE points; ANALYZE tariffs; ANALYZE provider_services;');
  }
  const storedDataset = (dataset: string) =>
    sqlite.prepare('SELECT version, row_count AS points FROM reference_data WHERE dataset = ?').get(dataset) as { version: string; points: number } | undefined;
  /** Raw statements wait their turn behind Kysely's (a transaction under way on the one connection). */
  const exclusive = <T>(work: () => T): Promise<T> => db.connection().execute(async () => work());

  return createReferenceStore(db, {
    text: sqliteText,
    searchHas: (word) => sql<SqlBool>`instr(search_text, ${word}) > 0`,
    pointsVersion: async () => String(dataVersion.get()),
    pointsVersionTrustMs: 0,

    storedDataset: (dataset) => exclusive(() => storedDataset(dataset) ?? null),

    loadDataset(dataset, version, prepared, now) {
      // IMMEDIATE: a second app starting on the same folder waits here, then sees the version and skips.
      return exclusive(() =>
        sqlite.transaction(() => {
          if (storedDataset(dataset)?.version === version) return false;
          writeDataset(dataset, prepared);
          sqlite
            .prepare(
              `INSERT INTO reference_data (dataset, version, row_count, loaded_at) VALUES (?, ?, ?, ?)
               ON CONFLICT (dataset) DO UPDATE SET version = excluded.version, row_count = excluded.row_count, loaded_at = excluded.loaded_at`,
            )
            .run(dataset, version, prepared.points.values.length, now);
          return true;
        }).immediate(),
      );
    },

    replaceDataset: (dataset, prepared) => exclusive(() => sqlite.transaction(() => writeDataset(dataset, prepared)).immediate()),
  });
}
