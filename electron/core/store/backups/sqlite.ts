import Database from 'better-sqlite3';
import { message, said, type MessageParam } from '../../../../shared/messages';
import type BetterSqlite3 from 'better-sqlite3';
import { AppError, badRequest } from '../../errors';
import type { OpenedDatabase } from '../database';
import { loadMigrations } from '../migrate';
import { withMissingFolderTold } from '../storage-errors';
import type { BackupsStore, DatabaseFiles } from './backups-store';

/** SQLite's online backup of `db` into `target`; a target folder that is gone is a storage failure (507). */
async function backupInto(db: BetterSqlite3.Database, target: string): Promise<void> {
  try {
    await db.backup(target);
  } catch (error) {
    throw withMissingFolderTold(error, target);
  }
}

/** SQLite's online backup: pages copied while the app keeps reading and writing. */
export function createSqliteBackupsStore({ sqlite }: OpenedDatabase): BackupsStore {
  return {
    async backupTo(file) {
      await backupInto(sqlite, file);
    },
  };
}

const unusable = (label: MessageParam, why: MessageParam) => badRequest(said('backup.unusable', { label, why }));

/** SQLite database files by path, opened with the Electron build of better-sqlite3 when given. */
export function sqliteDatabaseFiles(nativeBinding?: string): DatabaseFiles {
  const open = (file: string, options: BetterSqlite3.Options = {}) => {
    try {
      return new Database(file, { ...options, ...(nativeBinding ? { nativeBinding } : {}) });
    } catch (error) {
      throw withMissingFolderTold(error, file);
    }
  };

  return {
    async check(file, label) {
      let db: BetterSqlite3.Database | undefined;
      try {
        db = open(file, { readonly: true, fileMustExist: true });
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok') throw unusable(label, message('backup.why.damaged', { check: String(check) }));
        const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
        if (!hasTable) throw unusable(label, message('backup.why.notShipDesk'));
        const { v } = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
        const known = loadMigrations().at(-1)?.version ?? 0;
        if ((v ?? 0) > known) throw unusable(label, message('backup.why.newer', { version: Number(v), known }));
        return v ?? 0;
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw unusable(label, message('backup.why.unreadable', { detail: error instanceof Error ? error.message : String(error) }));
      } finally {
        db?.close();
      }
    },

    async copy(source, target) {
      const src = open(source, { readonly: true, fileMustExist: true });
      try {
        await backupInto(src, target); // whole even when the source has a WAL beside it
      } finally {
        src.close();
      }
    },

    async settle(file) {
      const db = open(file);
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },
  };
}
