import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three suites: unit tests beside the code, HTTP tests against a real server, browser tests in Debian Chromium.
 *
 * All three run in one queue with at least two files at a time. Vitest's default on a 2-core CI machine is one
 * worker (cores − 1), which ran every file one after another while most of them wait on sockets, child
 * processes, timers or Chromium rather than use a core. Every test starts its own server on a free port, its
 * own data folder and its own browser context, so browser files can run beside each other and beside the API files.
 *
 * The api and e2e files do not re-import the app for each file (`isolate: false`): each worker keeps its module
 * graph (the whole core, playwright-core) and its one Chromium (test/helpers/browser.ts) for the next file; a file
 * there mocks nothing and changes no global state it does not restore. Unit files stay isolated (some mock
 * `electron` and the core with vi.mock).
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
          include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000, isolate: false },
      },
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
