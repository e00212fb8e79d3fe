// Bundles the Electron shell (see electron-bundles.mjs) and copies the SQL migrations of both engines the
// bundled core reads beside main.mjs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyMigrations, mainBundle, preloadBundle } from './electron-bundles.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist-electron');

rmSync(out, { recursive: true, force: true });
try {
  await Promise.all([build({ ...mainBundle, absWorkingDir: root }), build({ ...preloadBundle, absWorkingDir: root })]);
} catch {
  // esbuild has already printed each error with its file and line.
  console.error('build-electron: the Electron shell did not compile (see the errors above).');
  process.exit(1);
}

const copied = copyMigrations(root, out);
console.log(`build-electron: dist-electron/main.mjs, dist-electron/preload.cjs, ${copied.sqlite} SQLite and ${copied.postgres} PostgreSQL migration(s)`);
