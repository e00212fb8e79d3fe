import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { markDatabaseGone } from './storage-errors';

/** How often the database file is looked at: a stat, a few microseconds. */
export const DATABASE_WATCH_MS = 1000;

const identity = (file: string): string | null => {
  try {
    const { dev, ino } = statSync(file);
    return `${dev}:${ino}`;
  } catch {
    return null;
  }
};

/**
 * Watches that the open database file is still the one at its path. Deleted, or its folder removed or renamed,
 * SQLite goes on writing into the unlinked file and every write would be lost at exit: from then on the connection
 * is made read-only (query_only), so each write is refused (a 507 saying so, see storage-errors) and reads answer
 * from what is open. When the same file is back at its path (the folder renamed back), writes go on by themselves;
 * another file there (a new or copied database) is never taken silently: only a restart opens it.
 * Looked at every DATABASE_WATCH_MS (a write within that time after the file went still goes to the lost file: most
 * writes run on better-sqlite3's own transactions, which no hook of Kysely's sees); `stop` ends it.
 */
export function watchDatabaseFile(sqlite: Database.Database, file: string, every = DATABASE_WATCH_MS) {
  const opened = identity(file);
  let gone = false;
  const check = () => {
    const now = identity(file) === opened;
    if (now === !gone || !sqlite.open) return;
    gone = !now;
    sqlite.pragma(`query_only = ${gone ? 'ON' : 'OFF'}`);
    markDatabaseGone(file, gone);
  };
  const timer = setInterval(check, every);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      markDatabaseGone(file, false);
    },
  };
}
