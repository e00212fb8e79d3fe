// The web UI (vite build into dist/), built when it is missing or older than its sources. Used by
// `npm start` (both modes) and `npm run serve`, so a fresh clone serves the UI either way.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stale } from './fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

/** The JS entry of a locally installed CLI (what npx would run), run with this same node. */
export function localBin(pkg) {
  const { bin } = JSON.parse(readFileSync(at('node_modules', pkg, 'package.json'), 'utf8'));
  return at('node_modules', pkg, typeof bin === 'string' ? bin : bin[pkg]);
}

/** Runs a build step to completion; stops the calling script with its exit code if it fails. */
export function runStep(label, file, stepArgs, prefix = 'start') {
  console.log(`${prefix}: ${label}…`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...stepArgs], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      console.error(`${prefix}: ${label} failed${signal ? ` (${signal})` : ''}.`);
      process.exit(code || 1);
    });
  });
}

const rendererSources = [at('renderer'), at('shared'), at('vite.config.ts'), at('index.html')];

/** Whether dist/ holds the web UI of the current sources. */
export const webUiIsCurrent = () => !stale([at('dist/index.html')], rendererSources);

/** The folder `vite build` writes the web UI to. */
export const webUiDir = at('dist');

/** Builds dist/ unless it is current. */
export async function ensureWebUi(prefix = 'start') {
  if (!webUiIsCurrent()) await runStep('building the web UI (vite build)', localBin('vite'), ['build'], prefix);
}
