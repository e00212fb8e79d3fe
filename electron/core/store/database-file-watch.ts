import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { tagGoneDatabase } from './storage-errors';

/** How often the database file is looked at besides each write: a stat, a few microseconds. */
export const DATABASE_WATCH_MS = 1000;

const identity = (file: string): string | null => {
  try {
    const { dev, ino } = statSync(file);
    return `${dev}:${ino}`;
  } catch {
    return null;
  }
};

/** What SQLite says to a write the gone file's connection refused (query_only), or could not make where the file was. */
const GONE_WRITE_CODES = /^SQLITE_(READONLY|IOERR|CANTOPEN)/;

export interface DatabaseFileWatch {
  /** Looks at the file now; true when it is gone (the connection is then read-only until the same file is back). */
  check(): boolean;
  stop(): void;
}

/**
 * Watches that the open database file is still the one at its path (its dev and inode). Deleted, or its folder removed
 * or renamed, SQLite goes on writing into the unlinked file without a word and every write would be lost: so the file is
 * looked at before each write (a better-sqlite3 transaction, a Kysely transaction through `check`, a write statement
 * outside a transaction) and every DATABASE_WATCH_MS; once it is gone the connection is made read-only (query_only),
 * each write is refused and its error tagged with this database's file (storage-errors.ts goneDatabaseOf: a 507 that
 * says so), and reads answer from what is open. When the same file is back (the folder renamed back), writes go on;
 * another file there (a new or copied database) is never taken silently: only a restart opens it.
 * The state is this database's own: another database of the process (a second app, a PostgreSQL one) never sees it.
 * Not looked at: `sqlite.exec` outside a transaction (migrations, before the watch).
 */
export function watchDatabaseFile(sqlite: Database.Database, file: string, every = DATABASE_WATCH_MS): DatabaseFileWatch {
  const opened = identity(file);
  // SQLite sets a flag pragma as the statement is prepared: prepared each time, by the connection's own prepare (not the guarded one)
  const prepare = sqlite.prepare.bind(sqlite);
  let gone = false;
  let stopped = false;
  const check = (): boolean => {
    if (stopped || !sqlite.open) return gone; // stopped: the guarded writes look no more
    const now = identity(file) !== opened;
    if (now !== gone) {
      gone = now;
      prepare(`PRAGMA query_only = ${gone ? 'ON' : 'OFF'}`).run();
    }
    return gone;
  };
  /** The error of a write, tagged when it is what the file being gone does to it (looked at again: it may have just gone). */
  const told = (error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && GONE_WRITE_CODES.test(code) && check() ? tagGoneDatabase(error, file) : error;
  };
  guardWrites(sqlite, check, told);
  const timer = setInterval(check, every);
  timer.unref();
  return {
    check,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

const statementCalls = ['run', 'get', 'all', 'iterate'] as const;

/**
 * The connection's writes looked at first: each transaction function of better-sqlite3 at its start, each statement
 * that writes when run outside a transaction; their errors go through `told`.
 */
function guardWrites(sqlite: Database.Database, check: () => void, told: (error: unknown) => unknown) {
  const prepare = sqlite.prepare.bind(sqlite) as (...args: unknown[]) => Database.Statement;
  sqlite.prepare = ((...args: unknown[]) => {
    const statement = prepare(...args);
    if (statement.readonly) return statement;
    for (const name of statementCalls) {
      const call = statement[name].bind(statement) as (...params: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = (...params: unknown[]) => {
        if (!sqlite.inTransaction) check();
        try {
          return call(...params);
        } catch (error) {
          throw told(error);
        }
      };
    }
    return statement;
  }) as typeof sqlite.prepare;
  const transaction = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) =>
    transaction(function (this: unknown, ...args: unknown[]) {
      check();
      try {
        return fn.apply(this, args);
      } catch (error) {
        throw told(error);
      }
    })) as typeof sqlite.transaction;
}
