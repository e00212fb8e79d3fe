import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * API files the PostgreSQL run leaves out: they test nothing of the database (or only the SQLite file itself), and
 * CI's time is tight. Each with its reason; every other file of test/api runs on both engines.
 */
const notOnPostgres = [
  'bench-quick', // a measurement run of `npm run bench -- --quick` (SQLite and PostgreSQL side by side there already)
  'carriers-ru-faults', // a delivery service's fault storm against the outbox: the services' behaviour, not the store's
  'cdek-faults', // the same for CDEK
  'disk-full', // the SQLite file on a full disk; PostgreSQL's files are its server's
  'openapi', // the OpenAPI document against the route table
  'postgres-serve', // on PostgreSQL already, in the api project whenever a server is given
  'postgres-instances', // two instance processes on a PostgreSQL database of their own, in the api project
  'postgres-two-apps', // two apps on a PostgreSQL database of their own, in the api project
  'postgres-periodic-work', // two apps on a PostgreSQL database of their own, in the api project
  'migrate-to-postgres', // copies SQLite into a PostgreSQL database of its own, in the api project
  'read-only-data-folder', // the SQLite file on a read-only mount; PostgreSQL's files are its server's
  'request-bodies', // body parsing off the main thread
  'robustness-xml', // XML encoding of the answers
  'serve-bundle', // the bundled server's build and start
  'vanished-database', // the SQLite file taken away under the app; PostgreSQL's files are its server's
  'serve-process', // the command line, and the SQLite file the process writes
  'serve-prewarm', // browser mode starts its import reading worker before the first import: the process, not the store
  'upload-crash', // a crash mid-upload read back from the SQLite file the process left
  'upload-hostile', // memory and zip-bomb attacks on the upload parser
  'upload-bad-files', // files the parser refuses before anything is written
  // Left out for CI's 20 minutes (the whole run took 1,340 s on the development machine with them): what they write
  // goes through stores the files above and below cover on PostgreSQL.
  'upload', // the upload endpoint's modes and answers; its imports' writes run here through import-wizard-core, upload-wizard, upload-errors-file, import-kept-files
  'robustness', // random malformed requests, refused before a store is asked (its orders' writes: orders, cdek-adapter here)
  'aggregator-clients', // what the PHP SDK and WooCommerce send and expect on the wire; their orders: orders here
  'roles', // the command table's role gate and the sign-in limits (in memory, scrypt-bound); its users and sessions are the accounts store's, tested on PostgreSQL in store/accounts
  // A delivery service's wire protocol against its fake: what these store goes through the same outbox, orders and
  // points sync as cdek-adapter's and upstream's, which run here.
  'boxberry-adapter',
  'fivepost-adapter',
  'russian-post-adapter',
  'yandex-delivery-adapter',
].map((name) => `test/api/${name}.test.ts`);

/** The unit tests: beside the code, and test/unit. */
const unitFiles = ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/unit/**/*.test.ts'];
/**
 * Unit files that replace modules (vi.mock, vi.resetModules) or the clock: each gets a module graph of its own (the
 * project unit-isolated). Every other unit file shares its worker's modules with the files before it (the project
 * unit, `isolate: false`): importing the core once per worker instead of once per file was most of the unit phase.
 */
const unitIsolated = ['electron/main.test.ts', 'electron/preload.test.ts', 'renderer/pages/dispatch/sending-date.test.ts', 'test/unit/architecture.test.ts'];

/**
 * The API suite on PostgreSQL (the project api-postgres) runs whenever a test server is given
 * (`eval "$(node scripts/test-postgres.mjs)"`; `.ci/run` starts one, and npm test leaves the project out, in one line,
 * when none answers). SHIPDESK_TEST_API_POSTGRES=0 leaves it out of a run that has a server (the store tests and the
 * PostgreSQL files of the api project still use it).
 */
const postgres = Boolean(process.env.SHIPDESK_TEST_POSTGRES) && process.env.SHIPDESK_TEST_API_POSTGRES !== '0';

/**
 * Three suites: unit tests beside the code, HTTP tests against a real server (on SQLite, and on PostgreSQL as the
 * project `api-postgres` when a test server is given), browser tests in Debian Chromium.
 *
 * All three run in one queue with at least two files at a time. Vitest's default on a 2-core CI machine is one
 * worker (cores − 1), which ran every file one after another while most of them wait on sockets, child
 * processes, timers or Chromium rather than use a core. Every test starts its own server on a free port, its
 * own data folder and its own browser context, so browser files can run beside each other and beside the API files.
 *
 * The api and e2e files do not re-import the app for each file (`isolate: false`): each worker keeps its module
 * graph (the whole core, playwright-core) and its one Chromium (test/helpers/browser.ts) for the next file; a file
 * there mocks nothing and changes no global state it does not restore. So do the unit files, but for the few in
 * unitIsolated.
 */
export default defineConfig({
  test: {
    globals: true,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          exclude: unitIsolated,
          environment: 'node',
          // 5 s (vitest's default) was once too short for a 0.5-s property test at load 19 (the suite beside four
          // engineers' work): a slow machine is not a failure of the code. Hooks: refresh.load.test.ts seeds 10,000
          // orders in its beforeAll, past 10 s at load 10.
          testTimeout: 15_000,
          hookTimeout: 30_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: unitIsolated, environment: 'node', testTimeout: 15_000, hookTimeout: 30_000 },
      },
      {
        extends: true,
        test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000, isolate: false },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'api-postgres',
                include: ['test/api/**/*.test.ts'],
                exclude: notOnPostgres,
                // test/helpers/test-app.ts gives each app a fresh database of its own on the server. Random requests
                // per operation in robustness: 30 here (120 on SQLite; its longest file on PostgreSQL), beside the fixed
                // nasty examples every operation gets (deep nesting, 70,000-character texts, 1e309, -0).
                env: { SHIPDESK_TEST_ENGINE: 'postgres', ROBUSTNESS_RUNS: '30' },
                environment: 'node' as const,
                testTimeout: 30_000,
                hookTimeout: 30_000,
                isolate: false,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          isolate: false,
        },
      },
    ],
  },
});
