// npm test: type check, lint, build the web UI the browser tests open, run every suite (unit, api, e2e),
// and end with one line `N passed, N failed` summing them all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import pg from 'pg';

const shell = process.platform === 'win32';
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell }).status ?? 1;
const npx = shell ? 'npx.cmd' : 'npx';
let passed = 0;
let failed = 0;

/** Runs a step with its output kept aside; resolves with its exit code and everything it printed, in order. */
function runQuietly(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { shell, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(output) }));
  });
}

/**
 * The checks before the tests, as many at once as the machine has cores (at least two: they wait on the disk
 * too); each one's title and output are printed whole, in the order listed, once it has finished.
 */
async function runChecks(steps) {
  const results = new Array(steps.length);
  let next = 0;
  const worker = async () => {
    while (next < steps.length) {
      const index = next++;
      results[index] = runQuietly(npx, steps[index].args);
      await results[index];
    }
  };
  await Promise.all(Array.from({ length: Math.min(steps.length, Math.max(2, availableParallelism())) }, worker));
  const codes = [];
  for (const [index, step] of steps.entries()) {
    const { code, output } = await results[index];
    console.log(`\n== ${step.title} ==`);
    process.stdout.write(output);
    codes.push(code);
  }
  return codes;
}

// The type check (tsconfig.json's projects, built once with `tsc -b`: each layer with only its own environment,
// shared: no DOM, no Node; core: Node; window: DOM; then the tests on top of them); the lint (the layers as import
// rules); the web UI the browser tests open.
const codes = await runChecks([
  { title: 'type check (tsc -b: the projects of tsconfig.json)', args: ['tsc', '-b'] },
  { title: 'lint (the layers as rules: eslint.config.mjs)', args: ['eslint', '.'] },
  { title: 'build the web UI for the browser tests', args: ['vite', 'build', '--logLevel', 'warn'] },
]);
const built = codes.pop() === 0;
if (!built) failed++;
for (const code of codes) {
  if (code === 0) passed++;
  else failed++;
}

// The store tests and the whole API suite (the vitest project api-postgres) run on PostgreSQL too when a server is
// given and answers; otherwise this says so, in one line, and they run on SQLite only.
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
  console.log(`\nPostgreSQL tests skipped: ${unreachable}; the API and store tests run on SQLite only (node scripts/test-postgres.mjs starts a server for them).`);
} else if (process.env.SHIPDESK_TEST_API_POSTGRES === '0') {
  console.log('\nPostgreSQL: the store tests and the PostgreSQL API files run on it; the whole API suite on it (project api-postgres) is left out (SHIPDESK_TEST_API_POSTGRES=0).');
}
const apiOnPostgres = !unreachable && process.env.SHIPDESK_TEST_API_POSTGRES !== '0';

console.log('\n== unit, api and browser tests ==');
mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
rmSync(report, { force: true });
const projects = built ? [] : ['--project', 'unit', '--project', 'api', ...(apiOnPostgres ? ['--project', 'api-postgres'] : [])];
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
