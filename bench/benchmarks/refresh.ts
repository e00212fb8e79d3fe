import { benchTempDir, fileExists, spawnTs } from '../lib/child';
import { onEngine, withBenchDatabase, type BenchEngine } from '../lib/postgres';
import { Skip, type Benchmark } from '../lib/report';

interface Result {
  type: 'result';
  ms: number;
  maxStallMs: number;
  loopDelayP99Ms: number;
  seedMs: number;
  statusRows: number;
  result: { checked: number; changed: number; statuses: number; failed: number };
  baseline: { ms: number; maxStallMs: number; reported: number };
}
type Msg = Result | { type: 'skip'; reason: string } | { type: 'error'; message: string };

/**
 * A full status refresh of 10,000 active orders registered at the sandbox service (most have news):
 * total time and the largest event-loop stall. Baseline: asking the sandbox service alone for the same
 * shipments in the same batches, nothing written.
 */
const refreshBenchOn = (engine: BenchEngine): Benchmark => ({
  name: onEngine('refresh', engine),
  title: `full status refresh of 10,000 active orders at the sandbox service, against the service calls alone${engine === 'postgres' ? ', on PostgreSQL' : ''}`,
  run: (ctx) => withBenchDatabase(engine, 'refresh', ctx.log, async (database) => {
    if (!fileExists('electron/core/statuses/refresh.ts')) throw new Skip('the status refresh service (electron/core/statuses/refresh.ts) does not exist yet');
    const orders = ctx.quick ? 300 : 10_000;
    const data = benchTempDir('refresh');
    const child = spawnTs<Msg>('bench/workers/refresh.ts', ['--data-dir', data.dir, '--orders', String(orders), ...(database ? ['--database', database] : [])]);
    try {
      const m = await child.next();
      if (m.type === 'skip') throw new Skip(m.reason);
      if (m.type === 'error') throw new Error(m.message);
      ctx.log(`refresh: seeded ${orders} orders in ${Math.round(m.seedMs)} ms`);
      return {
        params: { orders, registeredOverDays: 10 },
        figures: {
          ms: m.ms,
          maxStallMs: m.maxStallMs,
          loopDelayP99Ms: m.loopDelayP99Ms,
          checked: m.result.checked,
          changed: m.result.changed,
          newStatuses: m.result.statuses,
          failed: m.result.failed,
        },
        baseline: { what: 'sandbox provider.track for the same shipments, 250 a call, nothing written', ms: m.baseline.ms, maxStallMs: m.baseline.maxStallMs, reported: m.baseline.reported },
        ratio: m.ms / m.baseline.ms,
        ratioOf: 'refresh ms ÷ service calls alone ms',
        goals: [
          { figure: 'ms', op: '<=', limit: 10_000 },
          { figure: 'maxStallMs', op: '<', limit: 100 },
        ],
      };
    } finally {
      await child.finish();
      data.remove();
    }
  }),
});

export const refreshBench = refreshBenchOn('sqlite');
/** The same on PostgreSQL (`refresh-pg`): a fresh database on the run's server. */
export const refreshPgBench = refreshBenchOn('postgres');
