import { join } from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { benchTempDir, importIfExists, repoRoot, startBenchServer } from '../lib/child';
import { loadTest } from '../lib/http-load';
import { onEngine, withBenchDatabase, type BenchEngine } from '../lib/postgres';
import { createRng } from '../lib/prng';
import { Skip, type Benchmark, type BenchContext } from '../lib/report';

const token = 'bench-token-points';

interface PointLike {
  city: string;
  providerKey: string;
}
interface Generator {
  generatePointsFile(options: { seed?: number; counts?: Record<string, number> }): unknown;
}
interface Format {
  expandPoints(file: unknown): PointLike[];
  manifestSchema: { parse(v: unknown): unknown };
}
interface Reference {
  readDataset(dir: string, manifest: unknown): { points: PointLike[]; tariffs: unknown[]; services: unknown[] };
}

/**
 * A data folder whose sandbox dataset holds `total` points instead of the shipped 6,000, made with the
 * lists' own seeded generator and loaded through the reference store (derived columns, statistics). The
 * shipped tariffs and services stay. Returns the (city, service) pairs with their point counts.
 */
export async function seedPoints(ctx: BenchContext, dir: string, total: number, database?: string) {
  const generator = await importIfExists<Generator>('scripts/generate-sandbox-data.ts');
  const format = await importIfExists<Format>('electron/core/lists/reference-format.ts');
  const reference = await importIfExists<Reference>('electron/core/lists/reference-data.ts');
  if (!generator?.generatePointsFile || !format?.expandPoints || !reference?.readDataset) {
    throw new Skip('the points lists (electron/core/lists/reference-data.ts readDataset, scripts/generate-sandbox-data.ts) do not exist yet');
  }
  const started = performance.now();
  // Shares like the shipped data: express 40 %, post 25 %, lockers 35 %.
  const counts = { 'sandbox-express': Math.round(total * 0.4), 'sandbox-post': Math.round(total * 0.25), 'sandbox-lockers': 0 };
  counts['sandbox-lockers'] = total - counts['sandbox-express'] - counts['sandbox-post'];
  const points = format.expandPoints(generator.generatePointsFile({ seed: 5150, counts }));
  const app = await createApp({ dataDir: dir, database, log: silentLogger });
  try {
    const resources = join(repoRoot, 'resources/sandbox');
    const { readFileSync } = await import('node:fs');
    const manifest = format.manifestSchema.parse(JSON.parse(readFileSync(join(resources, 'manifest.json'), 'utf8')));
    const shipped = reference.readDataset(resources, manifest);
    await app.stores.reference.replaceDataset('sandbox', { points, tariffs: shipped.tariffs, services: shipped.services } as never);
    const inTable = Number((await app.db.selectFrom('points').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    ctx.log(`points: ${inTable} points loaded in ${Math.round(performance.now() - started)} ms`);
  } finally {
    await app.close();
  }
  const pairs = new Map<string, { city: string; providerKey: string; n: number }>();
  for (const p of points) {
    const key = `${p.city}\0${p.providerKey}`;
    const pair = pairs.get(key) ?? { city: p.city, providerKey: p.providerKey, n: 0 };
    pair.n++;
    pairs.set(key, pair);
  }
  return { total: points.length, pairs: [...pairs.values()] };
}

/**
 * 100,000 pickup points; `GET /v1/lists/points?filter=city=…;providerKey=…&limit=100` for cities picked
 * as a shop's customers live (in proportion to the points a city has). Latency with one connection
 * (what one caller waits; the goal), throughput with 32; against the bare route of the same server.
 */
const pointsBenchOn = (engine: BenchEngine): Benchmark => ({
  name: onEngine('points', engine),
  title: `GET /v1/lists/points by city and providerKey, limit 100, over 100,000 points, against a bare route${engine === 'postgres' ? ', on PostgreSQL' : ''}`,
  run: (ctx) => withBenchDatabase(engine, 'points', ctx.log, async (database) => {
    const total = ctx.quick ? 5_000 : 100_000;
    const seconds = ctx.quick ? 1 : 10;
    const data = benchTempDir('points');
    try {
      const { pairs } = await seedPoints(ctx, data.dir, total, database);
      // The request sequence: seeded, cities weighted by how many points they have.
      const rng = createRng(9001);
      const weightSum = pairs.reduce((s, p) => s + p.n, 0);
      const paths = Array.from({ length: 4096 }, () => {
        let r = rng.next() * weightSum;
        const pair = pairs.find((p) => (r -= p.n) < 0) ?? pairs[0];
        return `?filter=${encodeURIComponent(`city=${pair.city};providerKey=${pair.providerKey}`)}&limit=100`;
      });
      const biggest = pairs.reduce((a, b) => (b.n > a.n ? b : a));
      const server = await startBenchServer(data.dir, token, [], database);
      try {
        const run = (path: string, connections: number, durationSec: number) =>
          loadTest({ base: server.base, token, connections, durationSec, method: 'GET', path: (n) => `${path}${paths[n % paths.length]}` });
        ctx.log('points: warming up');
        await run('/v1/bench/bare', 32, ctx.quick ? 0.5 : 2);
        await run('/v1/lists/points', 32, ctx.quick ? 0.5 : 2);
        ctx.log(`points: 1 connection × ${seconds} s each`);
        const bare1 = await run('/v1/bench/bare', 1, seconds);
        const one = await server.profiled('points-1', () => run('/v1/lists/points', 1, seconds));
        ctx.log(`points: 32 connections × ${seconds} s each`);
        const bare32 = await run('/v1/bench/bare', 32, seconds);
        const many = await server.profiled('points-32', () => run('/v1/lists/points', 32, seconds));
        if (one.ok === 0) throw new Error(`GET /v1/lists/points never succeeded: ${one.firstFailure}`);
        return {
          params: { points: total, pairs: pairs.length, seconds, limit: 100, biggestPair: `${biggest.city}/${biggest.providerKey}: ${biggest.n}` },
          figures: {
            p50Ms: one.p50Ms,
            p99Ms: one.p99Ms,
            reqPerSec1: one.rps,
            reqPerSec32: many.rps,
            p99Ms32: many.p99Ms,
            non2xx: one.non2xx + many.non2xx,
          },
          baseline: {
            what: 'GET /v1/bench/bare (same server, auth, query string; fixed JSON)',
            p50Ms: bare1.p50Ms,
            p99Ms: bare1.p99Ms,
            reqPerSec1: bare1.rps,
            reqPerSec32: bare32.rps,
            p99Ms32: bare32.p99Ms,
          },
          ratio: many.rps / bare32.rps,
          ratioOf: 'points requests/s ÷ bare requests/s, 32 connections',
          // #16: a caller waits < 10 ms at 1 connection; at 32, ≥ 0.2 × the bare route's throughput and p99 < 30 ms.
          goals: [
            { figure: 'p99Ms', op: '<', limit: 10 },
            { figure: 'ratio', op: '>=', limit: 0.2 },
            { figure: 'p99Ms32', op: '<', limit: 30 },
          ],
          notes: [
            'p50Ms/p99Ms: one connection (the time a caller waits); p99Ms32: 32 connections, where queueing behind the other 31 dominates',
            ...(one.non2xx || many.non2xx ? [`non-2xx answers: ${one.firstFailure ?? many.firstFailure}`] : []),
          ],
        };
      } finally {
        await server.stop();
      }
    } finally {
      data.remove();
    }
  }),
});

export const pointsBench = pointsBenchOn('sqlite');
/** The same on PostgreSQL (`points-pg`): a fresh database on the run's server. */
export const pointsPgBench = pointsBenchOn('postgres');
