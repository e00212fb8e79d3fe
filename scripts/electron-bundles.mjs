// esbuild options of the two Electron bundles; shared by build-electron.mjs and the unit test that
// checks what each bundle still imports at run time.

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

/** electron/main.ts → dist-electron/main.mjs: ESM; native and heavy packages stay in node_modules. */
export const mainBundle = {
  ...common,
  entryPoints: ['electron/main.ts'],
  outfile: 'dist-electron/main.mjs',
  format: 'esm',
  external: ['electron', 'better-sqlite3', 'exceljs'],
  // Bundled CommonJS code may call require(); an ESM file has none unless we make one.
  banner: { js: "import { createRequire as __shipdeskCreateRequire } from 'node:module'; const require = __shipdeskCreateRequire(import.meta.url);" },
};

/** electron/preload.ts → dist-electron/preload.cjs: a sandboxed preload must be CommonJS and may require only 'electron'. */
export const preloadBundle = {
  ...common,
  entryPoints: ['electron/preload.ts'],
  outfile: 'dist-electron/preload.cjs',
  format: 'cjs',
  external: ['electron'],
};
