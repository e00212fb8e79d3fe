import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * Statements Kysely's SQLite driver asks for are kept by their SQL text, so each is prepared once (the driver prepares
 * every query again: 6 % of the create benchmark's server profile was better-sqlite3's `prepare`). Bounded: queries
 * whose text varies (IN lists of any length) drop the least used. A statement busy in an unfinished iteration (a
 * streamed query) is not handed out twice: that query gets one of its own.
 */
export function withPreparedStatements(sqlite: Database.Database, max = 500): SqliteDatabase {
  const statements = new LRUCache<string, Database.Statement>({ max });
  return {
    prepare(sql: string) {
      const kept = statements.get(sql);
      if (kept && !kept.busy) return kept;
      const statement = sqlite.prepare(sql);
      if (!kept) statements.set(sql, statement);
      return statement;
    },
    close: () => void sqlite.close(),
  };
}
