import { benchTempDir, startBenchServer } from '../lib/child';
import { orderPayload } from '../lib/fixtures';
import { loadTest } from '../lib/http-load';
import { createRng } from '../lib/prng';
import { onEngine, withBenchDatabase, type BenchEngine } from '../lib/postgres';
import type { Benchmark } from '../lib/report';

/**
 * Order creation over the local interface: POST /orders with 32 keep-alive connections for 10 s,
 * every request a new clientNumber, the outbox registering them with the sandbox service meanwhile
 * (as in serve). Baseline: a bare route of the same server answering fixed JSON to the same body.
 */
const createBenchOn = (engine: BenchEngine): Benchmark => ({
  name: onEngine('create', engine),
  title: `POST /orders over HTTP, 32 connections × 10 s, against a bare route of the same server${engine === 'postgres' ? ', on PostgreSQL' : ''}`,
  run: (ctx) => withBenchDatabase(engine, 'create', ctx.log, async (database) => {
    const connections = 32;
    const seconds = ctx.quick ? 1 : 10;
    const warmSeconds = ctx.quick ? 0.5 : 2;
    const token = 'bench-token-create';
    const data = benchTempDir('create');
    try {
      const server = await startBenchServer(data.dir, token, [], database);
      // One order payload; the clientNumber is set per request so every order is new.
      const template = JSON.stringify(orderPayload(createRng(20260301), '@CN@'));
      const body = (phase: string) => (n: number) => template.replace('@CN@', `${phase}-${String(n).padStart(7, '0')}`);
      const common = { base: server.base, token, connections };
      let stopped = false;
      try {
        ctx.log(`create: warming up (${warmSeconds} s each route)`);
        await loadTest({ ...common, durationSec: warmSeconds, method: 'POST', path: () => '/bench/bare', body: body('WB') });
        await loadTest({ ...common, durationSec: warmSeconds, method: 'POST', path: () => '/orders', body: body('WO') });
        ctx.log(`create: bare route ${seconds} s`);
        const bare = await server.profiled(`${onEngine('create', engine)}-bare`, () => loadTest({ ...common, durationSec: seconds, method: 'POST', path: () => '/bench/bare', body: body('B') }));
        ctx.log(`create: POST /orders ${seconds} s`);
        const orders = await server.profiled(`${onEngine('create', engine)}-orders`, () => loadTest({ ...common, durationSec: seconds, method: 'POST', path: () => '/orders', body: body('O') }));
        const after = await server.stop();
        stopped = true;
        if (orders.ok === 0) throw new Error(`POST /orders never succeeded: ${orders.firstFailure}`);
        return {
          params: { connections, seconds, warmupSeconds: warmSeconds },
          figures: {
            ordersPerSec: orders.rps,
            p50Ms: orders.p50Ms,
            p99Ms: orders.p99Ms,
            maxMs: orders.maxMs,
            created: orders.ok,
            non2xx: orders.non2xx,
            errors: orders.errors,
            ordersInDb: after.orders,
            outboxLeftAtEnd: after.pendingOutbox,
          },
          baseline: { what: 'POST /bench/bare (same server, auth, body read; fixed JSON)', reqPerSec: bare.rps, p50Ms: bare.p50Ms, p99Ms: bare.p99Ms, non2xx: bare.non2xx },
          ratio: orders.rps / bare.rps,
          ratioOf: 'orders/s ÷ bare requests/s',
          goals: [
            // issue #16: SQLite keeps ≥ 0.35 × its bare route; PostgreSQL ≥ 0.25 ×
            { figure: 'ratio', op: '>=', limit: engine === 'postgres' ? 0.25 : 0.35 },
            { figure: 'p99Ms', op: '<', limit: 50 },
          ],
          notes: orders.non2xx ? [`non-2xx answers: ${orders.firstFailure}`] : undefined,
        };
      } finally {
        if (!stopped) await server.stop().catch(() => {});
      }
    } finally {
      data.remove();
    }
  }),
});

export const createBench = createBenchOn('sqlite');
/** The same on PostgreSQL (`create-pg`): a fresh database on the run's server. */
export const createPgBench = createBenchOn('postgres');
