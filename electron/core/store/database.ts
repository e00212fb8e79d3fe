import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { Kysely } from 'kysely';
import { ensurePrivateDir, ensurePrivateFile } from '../paths';
import { watchDatabaseFile } from './database-file-watch';
import { loadMigrations, migrate } from './migrate';
import type { Schema } from './schema';
import { GuardedSqliteDialect, isFolderUnwritable } from './storage-errors';

export type Db = Kysely<Schema>;

/**
 * What an engine whose transactions run side by side (PostgreSQL) does first in a transaction that reads and then
 * writes what the read decided, so that two such transactions of the same `key` take turns; SQLite's one connection
 * runs transactions one at a time and needs nothing (its stores are given none).
 */
export type TransactionLock = (trx: Db, key: string) => Promise<void>;

export interface OpenedDatabase {
  /** The raw connection, for the few places a measurement asks for hand-written SQL. */
  sqlite: Database.Database;
  db: Db;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Path of the SQLite file, or ':memory:'. */
  file: string;
  /** The Electron build of better-sqlite3 (the Node build stays in node_modules for tests). */
  nativeBinding?: string;
  migrationsDir?: string;
  now?: number;
}

/**
 * The data folder cannot hold the database at start: read-only (a USB stick's write-protect switch, a read-only
 * mount), not ours to write, or full. SQLite cannot even read a WAL database where it cannot create the `-shm`
 * beside it, so ShipDesk does not start read-only: it says so, naming the folder, and starts once it is writable.
 */
export class DataFolderUnusableError extends Error {
  constructor(readonly folder: string, readonly code: string) {
    super(`the data folder ${folder} cannot be written (${code}: read-only, full or not permitted); make it writable (a USB stick's write-protect switch, the folder's permissions, free space) and start ShipDesk again`);
    this.name = 'DataFolderUnusableError';
  }
}

function openSqliteFile(options: OpenDatabaseOptions): Database.Database {
  if (options.file !== ':memory:') {
    ensurePrivateDir(dirname(options.file));
    ensurePrivateFile(options.file);
  }
  const sqlite = new Database(options.file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Statement journals and temporary b-trees in memory, not in temporary files: an insert into orders (its triggers
    // and ON CONFLICT need a statement journal) wrote and read one per statement. Measured on the store's group create
    // (20 concurrent createOrder, process CPU per order, load 7.6-8.6): 147-217 µs with it against 186-284 µs without.
    sqlite.pragma('temp_store = MEMORY');
    migrate(sqlite, loadMigrations(options.migrationsDir), options.now);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

/** Opens (creating if needed, 0600 in a 0700 folder) the database with WAL, foreign keys and a busy timeout, and migrates it. */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  let sqlite: Database.Database;
  try {
    sqlite = openSqliteFile(options);
  } catch (error) {
    // Only a folder that cannot be written is the owner's to fix as such; a failing migration says which and why.
    if (isFolderUnwritable(error)) throw new DataFolderUnusableError(dirname(options.file), String((error as { code: string }).code));
    throw error;
  }
  const watch = options.file === ':memory:' ? null : watchDatabaseFile(sqlite, options.file);
  const db = new Kysely<Schema>({ dialect: new GuardedSqliteDialect(sqlite, watch?.check) });
  return {
    sqlite,
    db,
    async close() {
      watch?.stop();
      await db.destroy(); // closes the better-sqlite3 connection, checkpointing the WAL
    },
  };
}
