import { randomUUID } from 'node:crypto';
import { message, said, type MessageParam } from '../../../shared/messages';
import { appendFileSync, existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BACKUP_UPLOAD_MAX_BYTES, type BackupFile, type BackupUploadPart, type BackupUploadState } from '../../../shared/contract/settings';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import { badRequest, notFound } from '../errors';
import type { Logger } from '../logger';
import { databaseFile, ensurePrivateDir, ensurePrivateFile } from '../paths';
import type { BackupsStore, DatabaseFiles } from '../store/backups/backups-store';
import { backupsDir, pendingRestoreFile, stamp } from './backup-paths';

export interface BackupServiceDeps {
  backups: BackupsStore;
  files: DatabaseFiles;
  clock: Clock;
  log: Logger;
  dataDir: string;
}

const backupName = /^(shipdesk|pre-restore|uploaded)-\d{8}-\d{6}(-\d+)?\.db$/;

/** A free name in the folder for this prefix and time (two backups in one second get -2, -3…). */
function freeName(dir: string, prefix: string, ms: number): string {
  const base = `${prefix}-${stamp(ms)}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${base}.db` : `${base}-${n}.db`;
    if (!existsSync(join(dir, name))) return name;
  }
}

/** The time part of a backup's name (sorts the newest first whatever the prefix). */
const stampOf = (name: string) => name.replace(/^(shipdesk|pre-restore|uploaded)-/, '');

/** An upload not finished within a day is given up and its part file removed by the next upload. */
const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Removes a database file with its WAL and shared-memory companions. */
function removeDatabaseFiles(file: string) {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/**
 * Applies a restore staged by backup.restore, before the database is opened: the current database is
 * checkpointed and kept as backups/pre-restore-…, the staged one takes its place. Answers what happened,
 * or null when nothing was staged.
 */
export async function applyPendingRestore(dataDir: string, now: number, files: DatabaseFiles): Promise<{ restored: string; previous: string | null } | null> {
  const pending = pendingRestoreFile(dataDir);
  if (!existsSync(pending)) return null;
  await files.check(pending, basename(pending)); // a staged file damaged since: refuse, keep the current database
  const current = databaseFile(dataDir);
  const dir = backupsDir(dataDir);
  ensurePrivateDir(dir);
  let previous: string | null = null;
  if (existsSync(current)) {
    await files.settle(current); // so that the kept copy is whole on its own
    previous = join(dir, freeName(dir, 'pre-restore', now));
    renameSync(current, previous);
  }
  // A WAL left beside the old name would be replayed onto the restored file: it must go.
  for (const f of [`${current}-wal`, `${current}-shm`]) rmSync(f, { force: true });
  try {
    renameSync(pending, current);
  } catch (error) {
    if (previous) renameSync(previous, current);
    throw error;
  }
  for (const f of [`${pending}-wal`, `${pending}-shm`]) rmSync(f, { force: true });
  return { restored: current, previous };
}

/** Backups of the open database (online backup API) and staged restores. */
export function createBackupService({ backups, files, clock, log, dataDir }: BackupServiceDeps) {
  const dir = backupsDir(dataDir);

  function describe(name: string): BackupFile {
    const path = join(dir, name);
    const info = statSync(path);
    const kind = name.startsWith('pre-restore') ? 'pre-restore' : name.startsWith('uploaded') ? 'uploaded' : 'backup';
    return { id: name, name, path, size: info.size, kind, created: formatTimestamp(Math.round(info.mtimeMs)) };
  }

  /**
   * A backup of the folder by its id, as a regular file. Nothing else is ever opened: not a path, not a
   * link, not a FIFO (opening one would block), and the error names only the id asked for.
   */
  function backupById(id: string): string {
    const missing = () => notFound(said('notFound.backup', { id }));
    if (!backupName.test(id)) throw missing();
    const file = join(dir, id);
    let info;
    try {
      info = lstatSync(file);
    } catch {
      throw missing();
    }
    if (!info.isFile()) throw missing();
    return file;
  }

  /** Stages a checked copy of the file; the next start puts it in place. */
  async function stage(source: string) {
    const schemaVersion = await files.check(source, basename(source));
    const staged = pendingRestoreFile(dataDir);
    removeDatabaseFiles(staged);
    ensurePrivateFile(staged);
    try {
      await files.copy(source, staged);
    } catch (error) {
      removeDatabaseFiles(staged);
      throw error;
    }
    return { staged, schemaVersion };
  }

  /** Where an upload's parts gather: hidden from backup.list, owner-only, named by an id nobody can guess. */
  const incomingFile = (uploadId: string) => join(dir, `.incoming-${uploadId}.part`);

  /** Bytes of an upload that has arrived; an unknown, finished or given-up upload is told plainly. */
  function uploadedSoFar(file: string, uploadId: string): number {
    try {
      return statSync(file).size;
    } catch {
      throw notFound(said('notFound.backupUpload', { id: uploadId }));
    }
  }

  /** A new upload's empty file; uploads abandoned for a day (a closed tab, a pulled cable) go first. */
  function startUpload(): string {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (/^\.incoming-[\w-]+\.part$/.test(name) && clock.now() - statSync(path).mtimeMs > ABANDONED_UPLOAD_MS) rmSync(path, { force: true });
    }
    const uploadId = randomUUID();
    writeFileSync(incomingFile(uploadId), '', { mode: 0o600, flag: 'wx' });
    return uploadId;
  }

  /** The whole uploaded file, renamed into the backups and checked; removed when it cannot be restored. */
  async function keepUpload(file: string, label: MessageParam): Promise<BackupFile> {
    const name = freeName(dir, 'uploaded', clock.now());
    const target = join(dir, name);
    renameSync(file, target);
    try {
      await files.check(target, label);
    } catch (error) {
      removeDatabaseFiles(target);
      throw error;
    }
    log.info(`Backup uploaded as ${name}`);
    return describe(name);
  }

  return {
    /** A consistent copy of the database while the app keeps working (SQLite's online backup). */
    async now(): Promise<BackupFile> {
      ensurePrivateDir(dir);
      const name = freeName(dir, 'shipdesk', clock.now());
      const target = join(dir, name);
      try {
        ensurePrivateFile(target);
        await backups.backupTo(target);
      } catch (error) {
        removeDatabaseFiles(target);
        throw error;
      }
      log.info(`Backup written: ${target}`);
      return describe(name);
    },

    async list(): Promise<BackupFile[]> {
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((name) => backupName.test(name) && lstatSync(join(dir, name)).isFile())
        .map(describe)
        .sort((a, b) => stampOf(b.name).localeCompare(stampOf(a.name), 'en', { numeric: true }));
    },

    /**
     * One part of a database file the owner picked (a file dialog, a browser upload), sent in order so that
     * neither side holds the whole file: the first part (no uploadId) opens a new upload; each next part
     * must start where the file ends (a repeated part is refused, not appended twice); the last part
     * (`done`) checks the file and keeps it only when it is a ShipDesk database this version can open.
     * Restore it by its id then.
     */
    async upload(input: BackupUploadPart): Promise<BackupUploadState> {
      ensurePrivateDir(dir);
      const part = Buffer.from(input.base64, 'base64');
      const label = input.name || message('backup.theFile');
      const uploadId = input.uploadId ?? startUpload();
      const file = incomingFile(uploadId);
      const received = uploadedSoFar(file, uploadId);
      if (input.offset !== received) throw badRequest(said('backup.wrongOffset', { offset: input.offset, received }));
      if (received + part.length > BACKUP_UPLOAD_MAX_BYTES) {
        rmSync(file, { force: true });
        throw badRequest(said('backup.unusable', { label, why: message('backup.why.tooLarge', { gib: BACKUP_UPLOAD_MAX_BYTES / 2 ** 30 }) }));
      }
      if (received === 0 && part.length >= 16 && part.subarray(0, 16).toString('latin1') !== 'SQLite format 3\0') {
        rmSync(file, { force: true });
        throw badRequest(said('backup.unusable', { label, why: message('backup.why.notSqlite') }));
      }
      try {
        appendFileSync(file, part);
      } catch (error) {
        rmSync(file, { force: true });
        throw error;
      }
      if (!input.done) return { uploadId, received: received + part.length, backup: null };
      return { uploadId, received: received + part.length, backup: await keepUpload(file, label) };
    },

    /**
     * Checks the backup and stages a copy of it; the next start puts it in place. Restoring under the
     * running app would pull the database from under open statements and workers.
     */
    async restore(id: string) {
      const { staged, schemaVersion } = await stage(backupById(id));
      log.info(`Restore staged from backup ${id}; it applies at the next start`);
      return {
        staged,
        from: id,
        schemaVersion,
        restartRequired: true as const,
        message: 'Restart ShipDesk to finish the restore; the current database is kept in the backups folder as pre-restore',
      };
    },

    async cancelRestore(): Promise<{ canceled: boolean }> {
      const staged = pendingRestoreFile(dataDir);
      const had = existsSync(staged);
      removeDatabaseFiles(staged);
      return { canceled: had };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
