// Builds better-sqlite3 for Electron's ABI into build/electron-native/better_sqlite3.node.
// node_modules/better-sqlite3/build is the Node build the tests load, so it is never touched: we copy
// the package into build/electron-native/src and rebuild the copy. electron-builder ships the result
// as resources/native/better_sqlite3.node and main.ts hands it to the core as `nativeBinding`.
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const verbose = process.argv.includes('--verbose');
const outDir = path.join(root, 'build/electron-native');
const work = path.join(outDir, 'src'); // a tiny project whose only dependency is the copied package
const source = path.join(root, 'node_modules/better-sqlite3');
const copy = path.join(work, 'node_modules/better-sqlite3');
const target = path.join(outDir, 'better_sqlite3.node');
// Records which Electron the binary was built for, so `npm start` rebuilds after an Electron upgrade.
const stamp = path.join(outDir, 'electron-version.txt');

/** One line for the person running the build; the full cause only with --verbose. */
function fail(message, cause) {
  if (verbose && cause) console.error(cause);
  console.error(`electron-native: ${message}${verbose || !cause ? '' : ' (run with --verbose for details)'}`);
  process.exit(1);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

if (!existsSync(source)) fail('node_modules/better-sqlite3 is missing; run npm install first.');
let electronVersion;
try {
  electronVersion = readJson(path.join(root, 'node_modules/electron/package.json')).version;
} catch (error) {
  fail('the electron package is not installed, so its version (and ABI) is unknown.', error);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const sourceDir = realpathSync(source); // node_modules may be a symlink (workspaces, CI caches)
cpSync(sourceDir, copy, {
  recursive: true,
  dereference: true, // a copied symlink would make the rebuild wipe the real Node build
  // The copied Node build must not be mistaken for an Electron one.
  filter: (file) => path.relative(sourceDir, file).split(path.sep)[0] !== 'build',
});
if (lstatSync(copy).isSymbolicLink() || realpathSync(copy) === sourceDir) {
  fail('refusing to build: the work copy resolves to node_modules/better-sqlite3 itself.');
}
writeFileSync(
  path.join(work, 'package.json'),
  JSON.stringify({ name: 'shipdesk-electron-native', private: true, dependencies: { 'better-sqlite3': readJson(path.join(sourceDir, 'package.json')).version } }, null, 2),
);

let rebuild;
try {
  ({ rebuild } = await import('@electron/rebuild'));
} catch (error) {
  fail('@electron/rebuild is not installed (it comes with electron-builder); run npm install.', error);
}

console.log(`electron-native: building better-sqlite3 for Electron ${electronVersion}…`);
// @electron/rebuild prints node-gyp's whole log and stack on failure; keep it for --verbose only.
const captured = [];
const consoleMethods = { log: console.log, warn: console.warn, error: console.error };
for (const name of Object.keys(consoleMethods)) console[name] = (...args) => captured.push(args.map(String).join(' '));
try {
  // Tries the prebuilt Electron binary first (no compiler needed), then compiles against Electron's headers.
  // projectRootPath pins the module search to the work copy, never the repo's node_modules above it.
  await rebuild({ buildPath: work, projectRootPath: work, electronVersion, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' });
} catch (error) {
  Object.assign(console, consoleMethods);
  const log = `${captured.join('\n')}\n${error?.stack ?? error}`;
  const offline = /network|proxy|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|certificate/i.test(log);
  fail(
    offline
      ? `could not download Electron ${electronVersion} headers or a prebuilt better-sqlite3 (no network access to electronjs.org / GitHub); Electron cannot open the database without it.`
      : `compiling better-sqlite3 for Electron ${electronVersion} failed (it needs Python and a C++ toolchain).`,
    log,
  );
} finally {
  Object.assign(console, consoleMethods);
}

const built = path.join(copy, 'build/Release/better_sqlite3.node');
if (!existsSync(built)) fail(`the rebuild finished but ${path.relative(root, built)} was not produced.`);
copyFileSync(built, target);
writeFileSync(stamp, `${electronVersion}\n`);
console.log(`electron-native: ${path.relative(root, target)} is ready for Electron ${electronVersion}.`);
