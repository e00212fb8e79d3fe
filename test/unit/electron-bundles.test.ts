import { build, type BuildOptions } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { copyMigrations, mainBundle, preloadBundle } from '../../scripts/electron-bundles.mjs';
import { defaultMigrationsDir, loadMigrations } from '../../electron/core/store/migrate';
import { postgresMigrationsDir } from '../../electron/core/store/postgres';

// Electron never runs on this machine, so this is where a bundle that would crash at launch shows up:
// a sandboxed preload can require only 'electron', and main can only import what ships with the app.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The bundle built in memory: what it still loads at run time (its external imports and how), and its code. */
async function bundled(options: BuildOptions) {
  const result = await build({ ...options, absWorkingDir: root, write: false, metafile: true, sourcemap: false, logLevel: 'silent' });
  const [output] = Object.values(result.metafile!.outputs).filter((o) => o.entryPoint);
  const imports = output!.imports.filter((i) => i.external).map((i) => ({ path: i.path, kind: i.kind }));
  return { imports, code: result.outputFiles!.find((f) => f.path.endsWith(String(options.outfile).split('/').pop()!))!.text };
}
const runtimeImports = async (options: BuildOptions) => (await bundled(options)).imports;
/** main.mjs is the slow one to build (tens of seconds on a loaded CI machine): built once for its two tests. */
let main: ReturnType<typeof bundled> | undefined;
const mainBundled = () => (main ??= bundled(mainBundle));

describe('the Electron bundles', () => {
  it('the sandboxed preload requires nothing but electron, as CommonJS', async () => {
    const imports = await runtimeImports(preloadBundle);
    expect(new Set(imports.map((i) => `${i.kind} ${i.path}`))).toEqual(new Set(['require-call electron']));
  });

  it('main loads only electron, better-sqlite3, exceljs, pdfkit and Node built-ins at run time', async () => {
    const builtins = new Set(builtinModules);
    // pg requires pg-native only when asked for its native client (pg.native or NODE_PG_FORCE_NATIVE), which ShipDesk never does.
    const allowed = (p: string) => ['electron', 'better-sqlite3', 'exceljs', 'pdfkit', 'pg-native'].includes(p) || p.startsWith('node:') || builtins.has(p);
    const { imports } = await mainBundled();
    expect(imports.map((i) => i.path)).toContain('electron');
    expect(imports.filter((i) => !allowed(i.path))).toEqual([]);
  }, 90_000);

  it('main reads both engines’ migrations beside itself, and the build copies every one there', async () => {
    const { code } = await mainBundled();
    expect(code).toMatch(/new URL\(["']\.\/migrations\/["'], import\.meta\.url\)/);
    expect(code).toMatch(/new URL\(["']\.\/migrations\/postgres\/["'], import\.meta\.url\)/);
    const out = mkdtempSync(path.join(tmpdir(), 'shipdesk-bundle-'));
    try {
      const copied = copyMigrations(root, out);
      const sqlite = loadMigrations(defaultMigrationsDir);
      const postgres = loadMigrations(postgresMigrationsDir);
      expect(postgres.length).toBeGreaterThan(0);
      expect(copied).toEqual({ sqlite: sqlite.length, postgres: postgres.length });
      expect(loadMigrations(path.join(out, 'migrations'))).toEqual(sqlite);
      expect(loadMigrations(path.join(out, 'migrations/postgres'))).toEqual(postgres);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 90_000);
});
