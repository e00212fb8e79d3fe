import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The core must run in plain Node (vitest, browser mode, Electron's main process), so only the shell
// may touch the electron package. This test reads the real tree and fails on any other file that does.
// Type-only imports count too: the rest of the app must not even depend on Electron's types.
// A commented-out import is flagged as well; that errs on the safe side.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['electron', 'renderer', 'shared', 'test', 'bench', 'scripts'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-electron', 'release', 'build', '.git']);
/** The shell and its own tests (which mock electron). */
const ALLOWED = new Set(['electron/main.ts', 'electron/main.test.ts', 'electron/preload.ts', 'electron/preload.test.ts']);

// `electron` or a subpath such as `electron/main`, but not `electron-builder`, `@electron/…` or `./electron/…`.
const SPEC = String.raw`(['"\x60])electron(?:\/[^'"\x60]*)?\1`;
const PATTERNS = [
  new RegExp(String.raw`\bimport\s+(?:type\s+)?[^;'"\x60]*?\bfrom\s*${SPEC}`), // static import, type-only included
  new RegExp(String.raw`\bexport\s+[^;'"\x60]*?\bfrom\s*${SPEC}`), // re-export
  new RegExp(String.raw`\bimport\s*${SPEC}`), // side-effect import
  new RegExp(String.raw`\bimport\s*\(\s*${SPEC}`), // dynamic import()
  new RegExp(String.raw`\brequire\s*\(\s*${SPEC}`), // require(), also TypeScript's import-equals form
];

/** True when TypeScript source pulls in the electron package in any form. */
function importsElectron(source: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(source));
}

function listTs(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a top-level folder that does not exist yet
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : listTs(full);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = SCANNED.flatMap((dir) => listTs(path.join(ROOT, dir))).map((file) => path.relative(ROOT, file).split(path.sep).join('/'));

describe('only the Electron shell imports electron', () => {
  it('scans the real tree, shell included', () => {
    expect(files).toContain('electron/main.ts');
    expect(files).toContain('electron/preload.ts');
    expect(files).toContain('test/unit/architecture.test.ts');
  });

  it('no file outside electron/main.ts and electron/preload.ts imports electron', () => {
    const offenders = files.filter((file) => !ALLOWED.has(file) && importsElectron(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders, 'move the Electron-specific code into electron/main.ts or electron/preload.ts').toEqual([]);
  });

  it('the shell itself does import electron (so the detector sees real imports)', () => {
    expect(importsElectron(readFileSync(path.join(ROOT, 'electron/main.ts'), 'utf8'))).toBe(true);
    expect(importsElectron(readFileSync(path.join(ROOT, 'electron/preload.ts'), 'utf8'))).toBe(true);
  });
});

describe('what counts as importing electron', () => {
  const e = 'electron'; // spelled indirectly so this file never matches its own rule
  it.each([
    `import { app } from '${e}';`,
    `import type { WebContents } from "${e}";`,
    `import * as el from '${e}'`,
    `import {\n  app,\n  BrowserWindow,\n} from '${e}';`,
    `import '${e}';`,
    `export { shell } from '${e}';`,
    `const { app } = require('${e}');`,
    `const el = require ( "${e}" )`,
    `const el = await import('${e}');`,
    `import('${e}/main').then(() => {})`,
    `import el = require('${e}');`,
    `import { ipcRenderer } from '${e}/renderer';`,
  ])('flags %s', (source) => {
    expect(importsElectron(source)).toBe(true);
  });

  it.each([
    `import { build } from '${e}-builder';`,
    `import { rebuild } from '@${e}/rebuild';`,
    `import { createApp } from './${e}/core/app';`,
    `import { x } from '../${e}';`,
    `// the core never touches ${e}`,
    `const name = '${e}';`,
    `vi.mock('${e}-updater')`,
  ])('does not flag %s', (source) => {
    expect(importsElectron(source)).toBe(false);
  });
});

// Unit files share their worker's modules (vitest.config.ts, `isolate: false`): a file that mocks modules, resets
// them, fakes the clock or stubs globals would leak that into the next file, so it must run isolated (unitIsolated).
describe('unit files that change modules or globals run isolated', () => {
  it('each is listed in vitest.config.ts unitIsolated', () => {
    const config = readFileSync(path.join(ROOT, 'vitest.config.ts'), 'utf8');
    const listed = config.match(/const unitIsolated = \[([^\]]*)\]/)?.[1] ?? '';
    const unit = files.filter((file) => /\.test\.tsx?$/.test(file) && !/^test\/(api|e2e)\//.test(file) && !file.startsWith('bench/'));
    const changing = unit.filter((file) => /\bvi\.(mock|doMock|resetModules|useFakeTimers|stubGlobal)\(/.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.filter((file) => !listed.includes(`'${file}'`))).toEqual([]);
  });
});
