// The bundled browser-mode server (electron-bundles.mjs serveBundle), built when it is missing or older
// than its sources. Used by `npm run serve` (serve.mjs) and by `npm start` when Electron is not here.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBundle } from './electron-bundles.mjs';
import { stale } from './fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the bundle was built from (as the last build recorded it), with the build's own settings. */
function sourcesOf(inputsFile) {
  let inputs = [];
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    // no record: the bundle is rebuilt anyway (stale() sees the file missing)
  }
  return [...inputs, 'package.json', 'scripts/electron-bundles.mjs', 'scripts/serve-bundle.mjs'].map((p) => path.join(root, p));
}

/** Absolute path of dist-serve/serve.mjs, built first if needed (esbuild, about a second). */
export async function ensureServeBundle() {
  const file = path.join(root, serveBundle.outfile);
  const inputsFile = file.replace(/\.mjs$/, '.inputs.json');
  if (!stale([file, inputsFile], sourcesOf(inputsFile))) return file;
  const { build } = await import('esbuild'); // only when building: a start with a fresh bundle does not load it
  let result;
  try {
    result = await build({ ...serveBundle, absWorkingDir: root, write: false, metafile: true });
  } catch {
    // esbuild has already printed each error with its file and line.
    console.error('serve: the server did not compile (see the errors above).');
    process.exit(1);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside and renamed: two starts building at once each put down a whole file.
  for (const out of result.outputFiles) {
    const temp = `${out.path}.${process.pid}.tmp`;
    writeFileSync(temp, out.contents);
    renameSync(temp, out.path);
  }
  // The files it was made of: the next start compares their times with the bundle's (fast, exact).
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules'));
  writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(inputs));
  renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
  return file;
}
