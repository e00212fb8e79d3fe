import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { logsDir } from './file-log';

/** How far back "save logs for support" reaches. */
export const SUPPORT_LOG_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SupportBundle {
  fileName: string;
  base64: string;
  /** The log files inside, oldest first. */
  files: string[];
}

/** The log files written in the last `days` days, zipped for a support request (secrets were never written). */
export function supportBundle(dataDir: string, now: number, days = SUPPORT_LOG_DAYS): SupportBundle {
  const dir = logsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.log'));
  } catch {
    names = []; // no log written yet: an empty bundle still tells support that
  }
  const recent = names
    .map((name) => ({ name, modified: statSync(join(dir, name)).mtimeMs }))
    .filter((file) => file.modified >= now - days * DAY_MS)
    .sort((a, b) => a.modified - b.modified || a.name.localeCompare(b.name));
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const file of recent) entries[file.name] = [readFileSync(join(dir, file.name)), { mtime: new Date(file.modified) }];
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[-:T]/g, '');
  return {
    fileName: `shipdesk-logs-${stamp}.zip`,
    base64: Buffer.from(zipSync(entries, { level: 6 })).toString('base64'),
    files: recent.map((file) => file.name),
  };
}
