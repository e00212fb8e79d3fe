// Bundles the Electron shell (see electron-bundles.mjs) and copies the SQL migrations the bundled
// core reads beside main.mjs.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainBundle, preloadBundle } from './electron-bundles.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist-electron');
const migrationsSrc = path.join(root, 'electron/core/store/migrations');

rmSync(out, { recursive: true, force: true });
try {
  await Promise.all([build({ ...mainBundle, absWorkingDir: root }), build({ ...preloadBundle, absWorkingDir: root })]);
} catch {
  // esbuild has already printed each error with its file and line.
  console.error('build-electron: the Electron shell did not compile (see the errors above).');
  process.exit(1);
}

// The core finds its migrations with new URL('./migrations/', import.meta.url): in the bundle that is here.
mkdirSync(path.join(out, 'migrations'), { recursive: true });
const sql = readdirSync(migrationsSrc).filter((name) => name.endsWith('.sql'));
for (const name of sql) copyFileSync(path.join(migrationsSrc, name), path.join(out, 'migrations', name));

console.log(`build-electron: dist-electron/main.mjs, dist-electron/preload.cjs, ${sql.length} migration(s)`);
