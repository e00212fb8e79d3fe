import { build, type BuildOptions } from 'esbuild';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mainBundle, preloadBundle } from '../../scripts/electron-bundles.mjs';

// Electron never runs on this machine, so this is where a bundle that would crash at launch shows up:
// a sandboxed preload can require only 'electron', and main can only import what ships with the app.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the bundle still loads at run time: its external imports and how. */
async function runtimeImports(options: BuildOptions) {
  const result = await build({ ...options, absWorkingDir: root, write: false, metafile: true, sourcemap: false, logLevel: 'silent' });
  const [output] = Object.values(result.metafile!.outputs).filter((o) => o.entryPoint);
  return output!.imports.filter((i) => i.external).map((i) => ({ path: i.path, kind: i.kind }));
}

describe('the Electron bundles', () => {
  it('the sandboxed preload requires nothing but electron, as CommonJS', async () => {
    const imports = await runtimeImports(preloadBundle);
    expect(new Set(imports.map((i) => `${i.kind} ${i.path}`))).toEqual(new Set(['require-call electron']));
  });

  it('main loads only electron, better-sqlite3, exceljs, pdfkit and Node built-ins at run time', async () => {
    const builtins = new Set(builtinModules);
    const allowed = (p: string) => ['electron', 'better-sqlite3', 'exceljs', 'pdfkit'].includes(p) || p.startsWith('node:') || builtins.has(p);
    const imports = await runtimeImports(mainBundle);
    expect(imports.map((i) => i.path)).toContain('electron');
    expect(imports.filter((i) => !allowed(i.path))).toEqual([]);
  }, 30_000);
});
