import { join } from 'node:path';

export const backupsDir = (dataDir: string) => join(dataDir, 'backups');

/** A restore staged by backup.restore; applied at the next start, before the database opens. */
export const pendingRestoreFile = (dataDir: string) => join(dataDir, 'restore-pending.db');

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYYMMDD-HHMMSS in the computer's local time, as the user reads the file list. */
export function stamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}
