// esbuild options of the Electron bundles and the copy of the migrations beside main.mjs; shared by
// build-electron.mjs and the unit test that checks what each bundle still imports at run time and carries.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';


const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

/**
 * electron/main.ts → dist-electron/main.mjs: ESM; native and heavy packages stay in node_modules, and so
 * does pdfkit, which reads its font metrics from files beside its own code.
 */
export const mainBundle = {
  ...common,
  entryPoints: ['electron/main.ts'],
  outfile: 'dist-electron/main.mjs',
  format: 'esm',
  external: ['electron', 'better-sqlite3', 'exceljs', 'pdfkit'],
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

/**
 * Keeps `import.meta.url` of every bundled source file its own file's URL, so the core finds its
 * migrations, resources and import worker beside the sources exactly as when run through tsx.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /[\\/](electron|shared)[\\/].*\.ts$/ }, async (args) => {
      const [{ readFile }, { pathToFileURL }, { transform }] = await Promise.all([import('node:fs/promises'), import('node:url'), import('esbuild')]);
      // esbuild's define replaces the expression only where it is code (not in strings), keeping a source map.
      const { code } = await transform(await readFile(args.path, 'utf8'), {
        loader: 'ts',
        sourcefile: args.path,
        sourcemap: 'inline',
        define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
      });
      return { contents: code, loader: 'js' };
    });
  },
};

/**
 * electron/serve.ts → dist-serve/serve.mjs: browser mode (`npm run serve`) without loading the sources
 * through tsx at every start (70 % of a start on 100,000 orders, bench startup). It runs from the
 * repository: packages stay in node_modules, files are found beside the sources.
 */
export const serveBundle = {
  ...common,
  entryPoints: ['electron/serve.ts'],
  outfile: 'dist-serve/serve.mjs',
  format: 'esm',
  packages: 'external',
  plugins: [sourceUrls],
};

/**
 * Copies the SQL migrations of both engines from `root`'s sources into `out`, where the bundled core looks for them
 * (`new URL('./migrations/', import.meta.url)` and `./migrations/postgres/` of main.mjs): SQLite's into
 * `out/migrations`, PostgreSQL's into `out/migrations/postgres`. Answers how many of each it copied.
 */
export function copyMigrations(root, out) {
  const copied = {};
  for (const [engine, dir] of [['sqlite', 'migrations'], ['postgres', 'migrations/postgres']]) {
    const from = path.join(root, 'electron/core/store', dir);
    const to = path.join(out, dir);
    mkdirSync(to, { recursive: true });
    const sql = readdirSync(from).filter((name) => name.endsWith('.sql'));
    for (const name of sql) copyFileSync(path.join(from, name), path.join(to, name));
    copied[engine] = sql.length;
  }
  return copied;
}
