import { defineConfig } from 'vitest/config';

/** Three suites: unit tests beside the code, HTTP tests against a real server, browser tests in Debian Chromium. */
export default defineConfig({
  test: {
    globals: true,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
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
        test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
