import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellPaths } from './shell-paths';

const base = { appPath: '/repo', resourcesPath: '/opt/ShipDesk/resources', userData: '/home/shop/.config/ShipDesk' };

describe('where the shell finds things', () => {
  it('in the installed app: data in the user folder, SQLite and resources next to the asar', () => {
    expect(shellPaths({ ...base, appPath: '/opt/ShipDesk/resources/app.asar', isPackaged: true, exists: () => false })).toEqual({
      rendererDir: path.join('/opt/ShipDesk/resources/app.asar', 'dist'),
      dataDir: '/home/shop/.config/ShipDesk',
      nativeBinding: path.join('/opt/ShipDesk/resources', 'native', 'better_sqlite3.node'),
      resourcesDir: path.join('/opt/ShipDesk/resources', 'resources'),
    });
  });

  it('in development: the repo’s dist/ and resources/, and the Electron SQLite build when it exists', () => {
    const built = shellPaths({ ...base, isPackaged: false, exists: () => true });
    expect(built).toEqual({
      rendererDir: path.join('/repo', 'dist'),
      dataDir: '/home/shop/.config/ShipDesk',
      nativeBinding: path.join('/repo', 'build', 'electron-native', 'better_sqlite3.node'),
      resourcesDir: path.join('/repo', 'resources'),
    });
    expect(shellPaths({ ...base, isPackaged: false, exists: () => false })).not.toHaveProperty('nativeBinding');
  });
});
