import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { repoRoot } from './child';
import { Skip } from './report';

/**
 * The PostgreSQL server the `-pg` benchmarks use: SHIPDESK_TEST_POSTGRES when set (a URL whose user may
 * create databases), else a throwaway one started with scripts/test-postgres.mjs (its own port and data
 * folder, stopped at the end of the run). None to be had: the benchmark is skipped, saying so.
 */
let server: Promise<{ url: string; stop?: () => void }> | undefined;
let made = 0;

function startServer(log: (m: string) => void) {
  const given = process.env.SHIPDESK_TEST_POSTGRES;
  if (given) return { url: given };
  let printed: string;
  try {
    printed = execFileSync(process.execPath, ['scripts/test-postgres.mjs'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const why = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    throw new Skip(`no PostgreSQL (SHIPDESK_TEST_POSTGRES unset, and starting one failed: ${why.split('\n').at(-1)})`);
  }
  const url = /SHIPDESK_TEST_POSTGRES=(\S+)/.exec(printed)?.[1];
  const dir = /SHIPDESK_TEST_POSTGRES_DIR=(\S+)/.exec(printed)?.[1];
  if (!url || !dir) throw new Skip(`no PostgreSQL (scripts/test-postgres.mjs printed no URL: ${printed.trim()})`);
  log(`postgres: started a throwaway server for the run at ${url}`);
  return { url, stop: () => execFileSync(process.execPath, ['scripts/test-postgres.mjs', 'stop', dir], { cwd: repoRoot, stdio: 'ignore' }) };
}

/** A new empty database on the benchmarks' server for one benchmark; `drop` removes it. */
export async function benchPostgresDatabase(name: string, log: (m: string) => void): Promise<{ url: string; drop(): Promise<void> }> {
  server ??= (async () => startServer(log))();
  let url: string;
  try {
    ({ url } = await server);
  } catch (error) {
    server = undefined;
    throw error;
  }
  const database = `shipdesk_bench_${name.replace(/\W/g, '_')}_${process.pid}_${++made}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch (error) {
    throw new Skip(`no PostgreSQL (${url} does not answer: ${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${database}`;
  return {
    url: own.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Stops the server the run started (none when SHIPDESK_TEST_POSTGRES named one). */
export async function stopBenchPostgres() {
  const started = server && (await server.catch(() => null));
  server = undefined;
  started?.stop?.();
}

export type BenchEngine = 'sqlite' | 'postgres';

/** The benchmark's name on an engine: `points`, `points-pg`. */
export const onEngine = (name: string, engine: BenchEngine) => (engine === 'postgres' ? `${name}-pg` : name);

/**
 * Runs `work` with the database of a benchmark on `engine`: none (the SQLite file of the data folder) or a
 * fresh PostgreSQL database's URL, dropped afterwards.
 */
export async function withBenchDatabase<T>(engine: BenchEngine, name: string, log: (m: string) => void, work: (database: string | undefined) => Promise<T>): Promise<T> {
  if (engine === 'sqlite') return work(undefined);
  const database = await benchPostgresDatabase(name, log);
  try {
    return await work(database.url);
  } finally {
    await database.drop().catch((error) => log(`postgres: dropping ${name}'s database failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}
