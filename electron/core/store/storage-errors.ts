import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteDialect, type DatabaseConnection, type Driver } from 'kysely';
import type Database from 'better-sqlite3';
import { withPreparedStatements } from './statement-cache';

/** SQLite's and the file system's ways of saying the data folder cannot take a write. */
const SQLITE_STORAGE_CODES = /^SQLITE_(FULL|READONLY|CANTOPEN|IOERR)/;
const FS_STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);
/** The file system's ways of saying the folder is not ours to write (permissions), beside FS_STORAGE_CODES' full or read-only. */
const NOT_PERMITTED_CODES = new Set(['EACCES', 'EPERM']);
/** SQLite's ways of saying the data folder cannot take the database: full, read-only, or the file cannot be opened there. */
const SQLITE_UNWRITABLE_CODES = /^SQLITE_(FULL|READONLY|CANTOPEN)/;

/**
 * Whether an error at start means the data folder cannot hold the database (full, read-only, not permitted): the
 * owner's to fix, said as such (database.ts's DataFolderUnusableError). An I/O error or a migration's own failure is not.
 */
export function isFolderUnwritable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (SQLITE_UNWRITABLE_CODES.test(code) || FS_STORAGE_CODES.has(code) || NOT_PERMITTED_CODES.has(code));
}

/**
 * Whether an error means the disk is full or the data folder is read-only or gone (a USB stick pulled out):
 * bad luck to be told plainly (507), not a fault of ours (500). Nothing was written: SQLite rolled back.
 */
export function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (SQLITE_STORAGE_CODES.test(code) || FS_STORAGE_CODES.has(code));
}

/**
 * The database file whose being gone (deleted or replaced under the app) made `error`, as that database's file watch
 * tagged it (database-file-watch.ts), else null. Each database tags its own errors: two apps of one process (a
 * PostgreSQL one beside a SQLite one, the tests) never answer for each other's file.
 */
export function goneDatabaseOf(error: unknown): string | null {
  const file = (error as { goneDatabase?: unknown } | null)?.goneDatabase;
  return typeof file === 'string' ? file : null;
}

/** `error` marked as what the database `file` being gone did to a write (goneDatabaseOf). */
export function tagGoneDatabase(error: unknown, file: string): unknown {
  return error !== null && typeof error === 'object' ? Object.assign(error, { goneDatabase: file }) : error;
}

/**
 * better-sqlite3 refuses a file whose folder does not exist (a data folder removed or renamed under the app) with a
 * bare TypeError, before SQLite is asked: that is told as SQLite's own "cannot open" (a storage failure, 507), not
 * as a fault of ours (500). Any other error is given back as it is.
 */
export function withMissingFolderTold(error: unknown, file: string): unknown {
  if (!(error instanceof TypeError) || existsSync(dirname(file))) return error;
  return Object.assign(new Error(`the folder ${dirname(file)} does not exist`, { cause: error }), { code: 'SQLITE_CANTOPEN' });
}

/**
 * Kysely's SQLite dialect, except that a rollback SQLite has already done is not asked for again: on a full
 * disk SQLite ends the transaction itself, and a second ROLLBACK would replace the real error ("database or
 * disk is full") with "cannot rollback - no transaction is active"; and each statement is prepared once.
 */
export class GuardedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: Database.Database,
    /** Called as each Kysely transaction begins (the database file's watch looks at the file: database-file-watch.ts). */
    private readonly beforeTransaction: () => void = () => {},
  ) {
    super({ database: withPreparedStatements(sqlite) });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const begin = driver.beginTransaction.bind(driver);
    driver.beginTransaction = async (connection, settings) => {
      this.beforeTransaction();
      await begin(connection, settings);
    };
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection: DatabaseConnection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/** PostgreSQL's SQLSTATE for a unique_violation (a UNIQUE or PRIMARY KEY constraint, or a unique index). */
const PG_UNIQUE_VIOLATION = '23505';

/**
 * Whether the engine refused a write for a UNIQUE or PRIMARY KEY constraint: SQLite by its extended code,
 * PostgreSQL by its SQLSTATE, never by the message.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === PG_UNIQUE_VIOLATION;
}
