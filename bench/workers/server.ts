// The bench's own server composition, in its own process so the load generator does not take the
// server's event loop: the real core and every route of browser mode, plus a bare route that answers
// fixed JSON after the same Host check, token lookup and body reading (the baseline).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { createHttpServer } from '../../electron/core/api/http-server';
import { allRoutes } from '../../electron/core/api/routes';
import type { Route } from '../../electron/core/api/route';
import { createApp } from '../../electron/core/app';
import type { Logger } from '../../electron/core/logger';
import { sendToParent } from '../lib/child';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, token: { type: 'string' }, workers: { type: 'string', default: 'on' } },
});

const log: Logger = {
  info: () => {},
  warn: (m) => console.error(m),
  error: (m, e) => console.error(m, e ?? ''),
};

const fixed = { orderId: '1', created: '2026-03-01T10:00:00+03:00' };

async function main() {
  const app = await createApp({ dataDir: values['data-dir']!, startWorkers: values.workers === 'on', log });
  const sqlStats = process.env.BENCH_PHASE_PROF ? countStatements(app.sqlite) : null;
  await app.services.companies.ensureWithToken(values.token!, 'Bench client');
  const bare: Route[] = [
    { method: 'GET', pattern: '/bench/bare', public: false, handler: async () => fixed },
    { method: 'POST', pattern: '/bench/bare', public: false, handler: async () => fixed },
  ];
  const http = createHttpServer({ app, routes: [...allRoutes(app), ...bare] });
  const port = await http.listen(0);
  // BENCH_PHASE_PROF: the benchmark asks for a CPU profile of one phase (one route under load).
  let session: Session | null = null;
  process.on('message', (m: { type: string; file?: string }) => {
    if (m.type === 'profile-start') {
      void (async () => {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
        sqlStats?.reset();
        await sendToParent({ type: 'profiling' });
      })();
      return;
    }
    if (m.type === 'profile-stop') {
      void (async () => {
        const { profile } = await session!.post('Profiler.stop');
        writeFileSync(m.file!, JSON.stringify(profile));
        if (sqlStats) writeFileSync(m.file!.replace(/\.cpuprofile$/, '.sql.json'), JSON.stringify(sqlStats.report(), null, 1));
        session!.disconnect();
        session = null;
        await sendToParent({ type: 'profiled', file: m.file });
      })();
      return;
    }
    if (m.type !== 'stop') return;
    void (async () => {
      const orders = (app.sqlite.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
      const pending = (app.sqlite.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
      await http.close();
      await app.close();
      await sendToParent({ type: 'stopped', orders, pendingOutbox: pending });
      process.exit(0);
    })();
  });
  await sendToParent({ type: 'ready', port });
}

/**
 * Diagnostics only (BENCH_PHASE_PROF): counts and times every SQL statement the core prepares and runs
 * through this connection (Kysely's driver prepares each query anew), to say which queries a request costs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStatement = Record<'run' | 'all' | 'get' | 'iterate', (...args: unknown[]) => unknown>;
function countStatements(sqlite: { prepare(sql: string): unknown }) {
  type Stat = { sql: string; prepares: number; prepareMs: number; runs: number; runMs: number };
  let stats = new Map<string, Stat>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (text: string): unknown => {
    const started = performance.now();
    const statement = prepare(text) as AnyStatement;
    const stat = stats.get(text) ?? { sql: text, prepares: 0, prepareMs: 0, runs: 0, runMs: 0 };
    stats.set(text, stat);
    stat.prepares++;
    stat.prepareMs += performance.now() - started;
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = statement[method];
      statement[method] = (...args: unknown[]) => {
        const t = performance.now();
        try {
          return original.apply(statement, args);
        } finally {
          const s = stats.get(text) ?? stat;
          s.runs++;
          s.runMs += performance.now() - t;
        }
      };
    }
    return statement;
  };
  return {
    reset: () => (stats = new Map()),
    report: () => [...stats.values()].sort((a, b) => b.runMs + b.prepareMs - (a.runMs + a.prepareMs)),
  };
}

main().catch(async (error) => {
  console.error(error);
  process.exit(1);
});
