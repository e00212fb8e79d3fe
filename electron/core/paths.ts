import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's app-data folder, the same one Electron's app.getPath('userData') gives for ShipDesk. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'ShipDesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'ShipDesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'ShipDesk');
}

export const databaseFile = (dataDir: string) => join(dataDir, 'shipdesk.db');

/**
 * A folder only this OS user can open (0700): the shop's orders, backups and keys live there. An existing
 * folder is tightened too. (Windows ignores the mode; the profile folder is private there already.)
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * A file only this OS user can read (0600), created empty when missing, so SQLite (which gives its WAL and
 * journal the database's mode) and the backups never exist readable by others, not even for a moment.
 */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}
