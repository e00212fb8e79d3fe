import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { Kysely } from 'kysely';
import { databaseFile } from '../../paths';
import { loadMigrations } from '../migrate';
import type { Schema } from '../schema';
import { registerSqlFunctions } from '../sql-functions';
import { GuardedSqliteDialect } from '../storage-errors';
import { MigrationRefused } from './refusal';

/** A shop's SQLite database opened read-only, inside one read transaction (one consistent picture even if the app runs). */
export interface SqliteSource {
  file: string;
  sqlite: Database.Database;
  db: Kysely<Schema>;
  /** Its newest applied migration. */
  version: number;
  close(): Promise<void>;
}

/** Opens the data folder's database read-only: nothing in the folder is changed, the file is never migrated. */
export function openSqliteSource(dataDir: string): SqliteSource {
  const file = databaseFile(dataDir);
  if (!existsSync(file)) throw new MigrationRefused(`There is no ShipDesk database in ${dataDir} (expected ${file}).`);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    registerSqlFunctions(sqlite); // the schema's own functions, should a read reach one; nothing is written
    const hasMigrations = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!hasMigrations) throw new MigrationRefused(`${file} is not a ShipDesk database (it has no schema_migrations table).`);
    const version = (sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    const known = loadMigrations().at(-1)?.version ?? 0;
    if (version !== known) {
      throw new MigrationRefused(
        version < known
          ? `The database in ${dataDir} is at schema version ${version}, this ShipDesk at ${known}: open it once with this version of ShipDesk (which updates it), close ShipDesk, then migrate.`
          : `The database in ${dataDir} was written by a newer ShipDesk (schema version ${version}; this one knows up to ${known}): migrate with that version.`,
      );
    }
    sqlite.exec('BEGIN'); // every read below sees the same moment of the database
    const db = new Kysely<Schema>({ dialect: new GuardedSqliteDialect(sqlite) });
    return {
      file, sqlite, db, version,
      async close() {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        await db.destroy();
        if (sqlite.open) sqlite.close(); // Kysely closes it only when it ran a query
      },
    };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/** The columns of a SQLite table, in their order. */
export function sqliteColumns(sqlite: Database.Database, table: string): string[] {
  return (sqlite.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[]).map((r) => r.name);
}
