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
import { countStatements } from '../lib/sql-stats';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, token: { type: 'string' }, workers: { type: 'string', default: 'on' }, database: { type: 'string' } },
});

const log: Logger = {
  info: () => {},
  warn: (m) => console.error(m),
  error: (m, e) => console.error(m, e ?? ''),
  child: () => log,
};

const fixed = { orderId: '1', created: '2026-03-01T10:00:00+03:00' };

async function main() {
  const app = await createApp({ dataDir: values['data-dir']!, database: values.database, startWorkers: values.workers === 'on', log });
  const sqlStats = process.env.BENCH_PHASE_PROF && !values.database ? countStatements(app.sqlite) : null;
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
      const count = async (table: 'orders' | 'outbox') =>
        Number((await app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const orders = await count('orders');
      const pending = await count('outbox');
      await http.close();
      await app.close();
      await sendToParent({ type: 'stopped', orders, pendingOutbox: pending });
      process.exit(0);
    })();
  });
  await sendToParent({ type: 'ready', port });
}

main().catch(async (error) => {
  console.error(error);
  process.exit(1);
});
