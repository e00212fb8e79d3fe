import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { registerSqlFunctions } from './sql-functions';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Beside this module in the source tree, beside the bundle in the packaged app (the build copies them). */
export const defaultMigrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Reads `NNNN_name.sql` files in version order. */
export function loadMigrations(dir = defaultMigrationsDir): Migration[] {
  return readdirSync(dir)
    .map((file) => /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2], sql: readFileSync(`${dir}/${m[0]}`, 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

export class DatabaseTooNewError extends Error {
  constructor(
    readonly databaseVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `This data folder was written by a newer ShipDesk (database schema ${databaseVersion}; this version knows up to ${appVersion}). ` +
        'Update ShipDesk to open it; nothing was changed.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

/** A migration that failed: which one, and SQLite's reason (its `code` kept, so a full or read-only folder is still told as such). */
export class MigrationFailedError extends Error {
  readonly code: unknown;
  constructor(
    readonly migration: Pick<Migration, 'version' | 'name'>,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`migration ${String(migration.version).padStart(4, '0')}_${migration.name} failed: ${reason}; nothing of it was applied`, { cause });
    this.name = 'MigrationFailedError';
    this.code = (cause as { code?: unknown } | null)?.code;
  }
}

/**
 * Applies the migrations the database has not seen, each in its own transaction and recorded in
 * schema_migrations. A database written by a newer app is refused before anything is touched.
 * Registers the SQL functions the schema uses first (every connection of the app is migrated).
 */
export function migrate(sqlite: BetterSqlite3.Database, migrations: Migration[], now = Date.now()): number[] {
  registerSqlFunctions(sqlite);
  sqlite.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(
    (sqlite.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const newestKnown = migrations.at(-1)?.version ?? 0;
  const newestApplied = Math.max(0, ...applied);
  if (newestApplied > newestKnown) throw new DatabaseTooNewError(newestApplied, newestKnown);

  const record = sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const ran: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    try {
      sqlite.transaction(() => {
        sqlite.exec(migration.sql);
        record.run(migration.version, migration.name, now);
      })();
    } catch (error) {
      throw new MigrationFailedError(migration, error);
    }
    ran.push(migration.version);
  }
  return ran;
}
