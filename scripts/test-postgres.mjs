// A throwaway PostgreSQL for the tests: its own data folder under the system's temp folder and its own port,
// started with the Debian packages' initdb/pg_ctl (as the postgres user when run as root). Prints
// `SHIPDESK_TEST_POSTGRES=postgres://…` for the store tests; `stop <folder>` stops it and removes the folder.
//
//   eval "$(node scripts/test-postgres.mjs)"      # start one and export the variable
//   npx vitest run electron/core/store            # the store tests then run on SQLite and on PostgreSQL
//   node scripts/test-postgres.mjs stop "$SHIPDESK_TEST_POSTGRES_DIR"
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** initdb and pg_ctl are not on PATH in Debian: they live in /usr/lib/postgresql/<major>/bin. */
function binDir() {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) if (existsSync(path.join(root, major, 'bin', 'initdb'))) return path.join(root, major, 'bin');
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return path.dirname(onPath);
  throw new Error('PostgreSQL is not installed (no initdb): apt-get install postgresql postgresql-contrib');
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Root may not run PostgreSQL: the cluster then belongs to the postgres user the Debian package created. */
const asRoot = process.getuid?.() === 0;
function run(bin, args) {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
}

function owner() {
  const line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

/**
 * What the server log (server.log in the cluster's folder) says of lock trouble: a wait longer than deadlock_timeout
 * (log_lock_waits), and for a deadlock both sides' statements (PostgreSQL's DETAIL names each process's query; the
 * failing one is logged too, log_min_error_statement being error by default). `stop` copies them to test-results/postgres-server.log when there are any.
 */
const diagnostics = '-c log_lock_waits=on -c deadlock_timeout=200ms';

async function start() {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'shipdesk-pg-'));
  if (asRoot) {
    const { uid, gid } = owner();
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  // Trust on loopback only: a cluster for tests, gone with its folder.
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'shipdesk', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  writeFileSync(path.join(dir, 'port'), String(port));
  run(path.join(bin, 'pg_ctl'), [
    '-D', data, '-l', path.join(dir, 'server.log'), '-w',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off ${diagnostics}`,
    'start',
  ]);
  const url = `postgres://shipdesk@127.0.0.1:${port}/postgres`;
  console.log(`export SHIPDESK_TEST_POSTGRES=${url}`);
  console.log(`export SHIPDESK_TEST_POSTGRES_DIR=${dir}`);
}

/** A line of the server log that starts an entry: `2026-11-28 14:27:13.512 UTC [2223] ERROR:  deadlock detected`. */
const entryStart = /^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[(\d+)\] (\w+):/;
/** Entries worth keeping: lock waits and deadlocks, and the errors of statements (each with its DETAIL and STATEMENT). */
const worthKeeping = (level, text) => /deadlock|waiting for|acquired \w+ on/.test(text) || (level === 'ERROR' && !/canceling statement due to user request/.test(text));

/** The server log's lock waits, deadlocks and statement errors, entry by entry with their detail lines. */
function lockTrouble(log) {
  const entries = [];
  for (const line of log.split('\n')) {
    const start = entryStart.exec(line);
    if (start) entries.push({ pid: start[1], level: start[2], lines: [line] });
    else entries.at(-1)?.lines.push(line);
  }
  const kept = [];
  let pid = null;
  for (const entry of entries) {
    const text = entry.lines.join('\n');
    if (worthKeeping(entry.level, text)) pid = entry.pid;
    else if (!(pid === entry.pid && /^(DETAIL|HINT|CONTEXT|STATEMENT)$/.test(entry.level))) pid = null;
    if (pid !== null) kept.push(text);
  }
  return kept;
}

/** Stops the cluster and removes its folder; what its log says of locks and errors is kept in test-results first. */
function stop(dir) {
  if (!dir || !existsSync(path.join(dir, 'data'))) throw new Error(`not a folder this script made: ${dir}`);
  run(path.join(binDir(), 'pg_ctl'), ['-D', path.join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
  const log = path.join(dir, 'server.log');
  const kept = existsSync(log) ? lockTrouble(readFileSync(log, 'utf8')) : [];
  if (kept.length > 0) {
    mkdirSync('test-results', { recursive: true });
    writeFileSync(path.join('test-results', 'postgres-server.log'), `${kept.join('\n')}\n`);
    console.error(`test-postgres: the server logged ${kept.length} lock waits or errors: test-results/postgres-server.log`);
  }
  rmSync(dir, { recursive: true, force: true });
}

try {
  if (process.argv[2] === 'stop') stop(process.argv[3]);
  else await start();
} catch (error) {
  console.error(`test-postgres: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
