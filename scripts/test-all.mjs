// npm test: type check, lint, build the web UI the browser tests open, run every suite (unit, api, e2e),
// and end with one line `N passed, N failed` summing them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let passed = 0;
let failed = 0;

// The whole tree, then each layer with only its own environment (shared: no DOM, no Node; core: Node; window: DOM).
for (const project of ['tsconfig.json', 'tsconfig.shared.json', 'tsconfig.core.json', 'tsconfig.renderer.json']) {
  console.log(`\n== type check (${project}) ==`);
  if (run(npx, ['tsc', '--noEmit', '-p', project]) === 0) passed++;
  else failed++;
}

console.log('\n== lint (the layers as rules: eslint.config.mjs) ==');
if (run(npx, ['eslint', '.']) === 0) passed++;
else failed++;

console.log('\n== build the web UI for the browser tests ==');
const built = run(npx, ['vite', 'build', '--logLevel', 'warn']) === 0;
if (!built) failed++;

// The store tests run on PostgreSQL too when a server is given and answers; otherwise they say so here, once.
async function postgresProblem(url) {
  if (!url) return 'SHIPDESK_TEST_POSTGRES is not set';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return `no server answers at ${url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1@')} (${error.message || error.code || String(error)})`;
  }
}
const unreachable = await postgresProblem(process.env.SHIPDESK_TEST_POSTGRES);
if (unreachable) {
  delete process.env.SHIPDESK_TEST_POSTGRES;
  console.log(`\nPostgreSQL skipped: ${unreachable}; the store tests run on SQLite only (node scripts/test-postgres.mjs starts a server for them).`);
}

console.log('\n== unit, api and browser tests ==');
mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
rmSync(report, { force: true });
const projects = built ? [] : ['--project', 'unit', '--project', 'api'];
const status = run(npx, ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);
if (existsSync(report)) {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  // A suite that crashed before its tests ran counts as a failure, not as nothing.
  failed += result.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
} else if (status !== 0) {
  failed++;
}
if (status !== 0 && failed === 0) failed++;

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
