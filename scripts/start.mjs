// `npm start`: the desktop app when Electron's binary is here, otherwise browser mode (electron/serve.ts, bundled).
// Either way it builds only what is missing or older than its sources, then runs one child and passes
// SIGINT/SIGTERM on to it, so the database is closed cleanly on Ctrl+C.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stale } from './fresh.mjs';
import { ensureServeBundle } from './serve-bundle.mjs';
import { ensureWebUi, runStep } from './web-ui.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const at = (...parts) => path.join(root, ...parts);

/** Path of Electron's binary, or null when the electron package has none (it could not be downloaded). */
function electronBinary() {
  try {
    const binary = require('electron'); // from plain node the package exports the binary's path
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** The installed Electron version the native SQLite build was made for matches the installed one. */
function nativeBuildCurrent() {
  try {
    const built = readFileSync(at('build/electron-native/electron-version.txt'), 'utf8').trim();
    const installed = JSON.parse(readFileSync(at('node_modules/electron/package.json'), 'utf8')).version;
    return built === installed && existsSync(at('build/electron-native/better_sqlite3.node'));
  } catch {
    return false;
  }
}

/** Starts the long-running child and makes this process follow it: signals in, exit code out. */
function runForeground(command, childArgs, env = process.env) {
  // Its own process group on POSIX: Ctrl+C then reaches the child once, through us, not twice
  // (serve treats a second SIGINT as "quit now without closing the database").
  const child = spawn(command, childArgs, { cwd: root, stdio: 'inherit', env, detached: process.platform !== 'win32' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  child.on('error', (error) => {
    console.error(`start: could not run ${path.basename(command)}: ${error.message}`);
    process.exit(1);
  });
}

async function startElectron(binary) {
  await ensureWebUi();
  if (stale([at('dist-electron/main.mjs'), at('dist-electron/preload.cjs')], [at('electron'), at('shared')])) {
    await runStep('building the Electron shell', at('scripts/build-electron.mjs'), []);
  }
  if (!nativeBuildCurrent()) await runStep('building SQLite for Electron', at('scripts/electron-native.mjs'), []);
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // set by some tools; it would make Electron behave as plain node
  runForeground(binary, [root, ...args], env);
}

async function startBrowserMode() {
  console.log('Electron is not available on this machine (its binary could not be downloaded) — starting ShipDesk in browser mode.');
  await ensureWebUi();
  const serve = await ensureServeBundle(); // bundled: starts in a third of the time tsx takes to load the sources
  runForeground(process.execPath, ['--enable-source-maps', serve, ...args]); // serve prints the URL to open
}

const binary = electronBinary();
await (binary ? startElectron(binary) : startBrowserMode());
