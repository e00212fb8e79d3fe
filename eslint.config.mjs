// The layers of the house as rules (docs/contributing.md): what each part of the tree may import.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeModules = builtinModules.filter((name) => !name.startsWith('_')).flatMap((name) => [name, `node:${name}`]);
const databaseDrivers = ['better-sqlite3', 'kysely', 'pg'];

/**
 * Core modules that still reach the database drivers themselves instead of through a store: the list the
 * one-store-per-aggregate work (issue 16) empties. A new file never joins it.
 */
const notYetBehindAStore = [];

/**
 * Modules outside the stores that still take the database itself (`Db`, `OpenedDatabase` from store/database):
 * the second list issue 16 empties. Only the stores and the composition root (app.ts) open the database; a new
 * file never joins this list.
 */
const stillHandedTheDatabase = [
  // Tests of the SQLite file itself: where the data folder keeps it, and reference data kept across a reopen of the file.
  'electron/core/lists/reference-data.test.ts',
  'electron/core/paths.test.ts',
];

const forbid = (...groups) => ['error', { patterns: groups }];
const group = (names, message) => ({ group: names, message });
/** Exactly these packages (a `group` pattern "electron" would also catch a path through a folder of that name). */
const packages = (names, message) => ({ regex: `^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(/.*)?$`, message });

export default tseslint.config(
  { ignores: ['dist/**', 'dist-electron/**', 'release/**', 'node_modules/**', 'test-results/**', 'bench/results/**'] },
  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // `_name` says "deliberately unused" (a destructured field left out, a callback's ignored argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Files and XML are checked for the control characters they must not carry: matching them is the point.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benchmarks read answers of every shape; `any` there is a reading, not a design.
    files: ['test/**', 'bench/**', '**/*.test.{ts,tsx}', 'electron/core/providers/*/fixtures/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['shared/**'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': forbid(
        group(nodeModules, 'shared/ runs in the window too: no Node modules here'),
        packages(['electron', ...databaseDrivers, 'react', 'react-dom', '@mantine/core'], 'shared/ is plain data and rules: no shell, database or UI libraries'),
        group(['**/electron/**', '**/renderer/**'], 'shared/ is imported by the core and the window, never the other way round'),
      ),
    },
  },
  {
    files: ['electron/core/**'],
    ignores: ['electron/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': forbid(
        packages(['electron'], 'the core runs in plain Node (browser mode, tests): only electron/main.ts and preload.ts import Electron'),
        group(['**/renderer/**', 'react', 'react-dom', '@mantine/*'], 'the core knows nothing of the window'),
      ),
    },
  },
  {
    files: ['electron/core/**'],
    ignores: ['electron/core/store/**', 'electron/core/**/*.test.ts', ...notYetBehindAStore],
    rules: {
      'no-restricted-imports': forbid(
        packages(['electron'], 'the core runs in plain Node (browser mode, tests): only electron/main.ts and preload.ts import Electron'),
        group(['**/renderer/**', 'react', 'react-dom', '@mantine/*'], 'the core knows nothing of the window'),
        packages(databaseDrivers, 'only stores (electron/core/store/) talk to the database: ask a store'),
      ),
    },
  },
  {
    // A separate rule name from the drivers' rule above, so that both apply to the same file.
    files: ['electron/core/**'],
    ignores: ['electron/core/store/**', 'electron/core/app.ts', ...stillHandedTheDatabase],
    rules: {
      '@typescript-eslint/no-restricted-imports': forbid(
        { regex: '(^|/)store/database(\\.[cm]?[jt]s)?$', message: 'services are handed stores (store/stores.ts), not the database: ask a store' },
      ),
    },
  },
  {
    files: ['renderer/**'],
    ignores: ['renderer/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': forbid(
        group(nodeModules, 'the window has no Node: ask the core through the transport'),
        packages(['electron', ...databaseDrivers], 'the window reaches the core only through the transport (IPC or HTTP)'),
        group(['**/electron/**'], 'the window reaches the core only through the transport and the contract in shared/'),
      ),
    },
  },
);
