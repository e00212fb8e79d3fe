import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's app-data folder, the same one Electron's app.getPath('userData') gives for ShipDesk. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'ShipDesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'ShipDesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'ShipDesk');
}

export const databaseFile = (dataDir: string) => join(dataDir, 'shipdesk.db');
