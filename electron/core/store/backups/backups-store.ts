import type { MessageParam } from '../../../../shared/messages';

/** The database engine's part in backups; the folder, the names and the uploads are backup-service's. */
export interface BackupsStore {
  /** A consistent copy of the open database written to this file while the app keeps working. */
  backupTo(file: string): Promise<void>;
}

/** Whole database files the app has not opened: a backup picked for restore, the one staged for the next start. */
export interface DatabaseFiles {
  /**
   * The schema version of a file this version can open as its database; an error naming the file by `label`
   * only when it is damaged, not a database of ours, or from a newer version.
   */
  check(file: string, label: MessageParam): Promise<number>;
  /** A whole, self-contained copy of `source` written to `target`. */
  copy(source: string, target: string): Promise<void>;
  /** Brings the file's pending writes into it (SQLite: its WAL), so the file alone holds everything. */
  settle(file: string): Promise<void>;
}
