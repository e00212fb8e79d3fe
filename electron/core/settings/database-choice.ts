import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseCheck, DatabaseChoice, DatabaseProblem, DatabaseState, DatabaseWhere } from '../../../shared/contract/database';
import type { SecretBox } from '../providers/connections/secret-box';
import { inspectPostgres, minimumPostgresMajor } from '../store/migrate-engine/target';
import { describePostgres } from '../store/postgres';

/** The owner's choice of engine, in the data folder: `{ engine: 'postgres', url (no password), password (sealed) }`. */
export const DATABASE_CHOICE_FILE = 'database.json';

interface StoredChoice {
  engine: 'postgres';
  /** The URL without its password. */
  url: string;
  /** The password sealed by the secrets box (as connection secrets are), or null when the URL has none. */
  password: string | null;
}

/**
 * The PostgreSQL URL (with its password) the owner chose in Settings → Database, or undefined: the SQLite file.
 * A choice that cannot be read (its key lost, the file damaged) stops the start rather than open another database.
 */
export function readDatabaseChoice(dataDir: string, secretBox: SecretBox): string | undefined {
  const file = join(dataDir, DATABASE_CHOICE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredChoice;
    const url = new URL(stored.url);
    if (stored.password !== null) url.password = encodeURIComponent(secretBox.decrypt(stored.password));
    return url.toString();
  } catch (error) {
    throw new Error(`${file} (the database chosen in Settings) cannot be read: ${error instanceof Error ? error.message : String(error)}. Fix or delete it (deleting it opens the SQLite file).`, { cause: error });
  }
}

/** A run's database: a PostgreSQL URL (with its password) or a SQLite file. */
export type DatabaseInUse = { postgres: string } | { file: string };

/** A run's database in a line (the log's start line, serve's "data: …"): the SQLite file, or the PostgreSQL URL without its password. */
export const describeDatabase = (inUse: DatabaseInUse): string => ('postgres' in inUse ? `PostgreSQL ${describePostgres(inUse.postgres)}` : inUse.file);

/** A database named without its password. */
export function databaseWhere(target: DatabaseInUse): DatabaseWhere {
  if ('file' in target) return { engine: 'sqlite', file: target.file };
  const url = new URL(target.postgres);
  return { engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: decodeURIComponent(url.pathname.slice(1)), user: decodeURIComponent(url.username) };
}

export interface DatabaseChoiceDeps {
  dataDir: string;
  secretBox: SecretBox;
  /** What this run opened. */
  inUse: DatabaseInUse;
  /** The SQLite file of the data folder (what the next start opens without a choice). */
  sqliteFile: string;
}

/** Settings → Database: what is in use, checking a server, storing the choice for the next start. */
export function createDatabaseChoice(deps: DatabaseChoiceDeps) {
  const file = join(deps.dataDir, DATABASE_CHOICE_FILE);
  const state = (): DatabaseState => {
    const next = readDatabaseChoice(deps.dataDir, deps.secretBox);
    return { inUse: databaseWhere(deps.inUse), next: databaseWhere(next ? { postgres: next } : { file: deps.sqliteFile }) };
  };
  return {
    state: async () => state(),
    async check(url: string): Promise<DatabaseCheck> {
      try {
        const found = await inspectPostgres(url);
        const { contents } = found;
        return {
          ok: true, serverVersion: found.serverVersion, supported: found.serverMajor >= minimumPostgresMajor,
          contents: contents.kind, orders: contents.kind === 'ours' ? contents.orders : null,
        };
      } catch (error) {
        return { ok: false, problem: problemOf(error), detail: error instanceof Error ? error.message : String(error) };
      }
    },
    async choose(choice: DatabaseChoice): Promise<DatabaseState> {
      if (choice.engine === 'sqlite') rmSync(file, { force: true });
      else {
        const url = new URL(choice.url);
        const password = url.password ? deps.secretBox.encrypt(decodeURIComponent(url.password)) : null;
        url.password = '';
        const stored: StoredChoice = { engine: 'postgres', url: url.toString(), password };
        // Owner-only, written aside and renamed: a crash leaves the old choice or the new one, never half of one.
        writeFileSync(`${file}.tmp`, JSON.stringify(stored, null, 2), { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
      }
      return state();
    },
  };
}

/** A failed connection, by its kind: the server not there, the login refused, the database missing. */
function problemOf(error: unknown): DatabaseProblem {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN'].includes(code) || /timeout/i.test(cause?.message ?? '')) return 'unreachable';
  if (code === '28P01' || code === '28000') return 'auth';
  if (code === '3D000') return 'no-database';
  return 'other';
}
