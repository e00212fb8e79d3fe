import path from 'node:path';

export interface ShellEnvironment {
  isPackaged: boolean;
  /** app.getAppPath(): the repo in development, the asar inside the installed app. */
  appPath: string;
  /** process.resourcesPath: where extraResources land in the installed app. */
  resourcesPath: string;
  /** app.getPath('userData'): the shop's database lives here, outside the app so updates keep it. */
  userData: string;
  exists(file: string): boolean;
}

export interface ShellPaths {
  /** Built renderer served over app://shipdesk/. */
  rendererDir: string;
  dataDir: string;
  /** The Electron build of better-sqlite3; absent in development when it was not built. */
  nativeBinding?: string;
  resourcesDir: string;
}

/** Where the shell finds the renderer, the data, the Electron build of SQLite and the shipped resources. */
export function shellPaths(env: ShellEnvironment): ShellPaths {
  const rendererDir = path.join(env.appPath, 'dist');
  if (env.isPackaged) {
    return {
      rendererDir,
      dataDir: env.userData,
      nativeBinding: path.join(env.resourcesPath, 'native', 'better_sqlite3.node'),
      resourcesDir: path.join(env.resourcesPath, 'resources'),
    };
  }
  // node_modules/better-sqlite3 holds the Node build the tests use; Electron needs its own ABI.
  const devBinding = path.join(env.appPath, 'build', 'electron-native', 'better_sqlite3.node');
  return {
    rendererDir,
    dataDir: env.userData,
    ...(env.exists(devBinding) ? { nativeBinding: devBinding } : {}),
    resourcesDir: path.join(env.appPath, 'resources'),
  };
}
