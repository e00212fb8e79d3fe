// npm test: type check, lint, build the web UI the browser tests open, run every suite (unit, api, e2e),
// and end with one line `N passed, N failed` summing them all.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import pg from 'pg';

const shell = process.platform === 'win32';
const npx = shell ? 'npx.cmd' : 'npx';
let passed = 0;
let failed = 0;

/**
 * Runs a step with its output kept aside; resolves with its exit code and everything it printed, in order. `nice`: its
 * priority (the processes it starts inherit it: set before npx starts the tool's own).
 */
function runQuietly(cmd, args, nice = 0) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { shell, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
    if (nice && child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Not allowed here: it runs at the tests' priority, only slower for them.
      }
    }
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(output) }));
  });
}

/** Runs a command with its output on this terminal as it comes; resolves with its exit code. */
function runShown(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', shell });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Prints a finished check whole under its title; answers whether it passed. */
async function report(check) {
  const { code, output } = await check.result;
  console.log(`\n== ${check.title} ==`);
  process.stdout.write(output);
  return code === 0;
}

// The type check (tsconfig.json's projects, built once with `tsc -b`: each layer with only its own environment,
// shared: no DOM, no Node; core: Node; window: DOM; then the tests on top of them) and the lint (the layers as import
// rules) run beside the tests, at a lower priority (nice 10), so they take the CPU the tests leave while they wait on
// timers, sockets and the browser; their output is kept and printed whole after the tests. Only the web UI the browser
// tests open must be built before the tests start.
const checks = [
  { title: 'type check (tsc -b: the projects of tsconfig.json)', args: ['tsc', '-b'] },
  { title: 'lint (the layers as rules: eslint.config.mjs)', args: ['eslint', '.'] },
].map((check) => ({ ...check, result: runQuietly(npx, check.args, 10) }));
const build = { title: 'build the web UI for the browser tests', result: runQuietly(npx, ['vite', 'build', '--logLevel', 'warn']) };
const built = await report(build);
if (!built) failed++;

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
const results = 'test-results/vitest.json';
rmSync(results, { force: true });
const projects = built ? [] : ['--project', 'unit', '--project', 'unit-isolated', '--project', 'api', ...(apiOnPostgres ? ['--project', 'api-postgres'] : [])];
const status = await runShown(npx, ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)]);
if (existsSync(results)) {
  const result = JSON.parse(readFileSync(results, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  // A suite that crashed before its tests ran counts as a failure, not as nothing.
  failed += result.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
} else if (status !== 0) {
  failed++;
}
if (status !== 0 && failed === 0) failed++;

for (const check of checks) {
  if (await report(check)) passed++;
  else failed++;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
