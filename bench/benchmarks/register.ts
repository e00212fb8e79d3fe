import { systemClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { createCdekClient } from '../../electron/core/providers/cdek/client';
import { createCdekProvider } from '../../electron/core/providers/cdek/cdek-provider';
import { ProviderUnavailableError, type ShipmentRequest } from '../../electron/core/providers/provider';
import { orderCreateSchema } from '../../shared/schemas/order';
import { createNodeHttpFetch } from '../../test/fakes/cdek/node-fetch';
import { cdekOrder } from '../../test/fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek } from '../../test/fakes/cdek/server';
import { seededFaults, startSlowFront } from '../../test/fakes/slow-front';
import { benchTempDir, spawnTs } from '../lib/child';
import type { Benchmark } from '../lib/report';

type Msg = { type: 'result'; ms: number; createdMs: number; failed: number } | { type: 'error'; message: string };

const LATENCY_MS = 250;
const BASELINE_AT_ONCE = 8;

/**
 * Registration of 1,000 orders with CDEK (its fake) far away: every answer takes 250 ms and 5 % of calls
 * are 503 with Retry-After: 1, at a front in this process; ShipDesk runs in its own process with the outbox
 * started and the connection's "parallel calls" at PARALLEL. Figure: first create → last order holding its
 * CDEK number, each counted once at the fake. Baseline: the same CDEK calls (the adapter alone, no
 * database, no outbox) for the same number of orders, 8 at a time, honouring the same Retry-After.
 */
export const registerBench: Benchmark = {
  name: 'register',
  title: '1,000 CDEK orders registered through the outbox (250 ms a call, 5 % 503 + Retry-After), against the same calls made 8 at a time',
  async run(ctx) {
    const orders = ctx.quick ? 40 : 1_000;
    const parallel = Number(process.env.BENCH_REGISTER_PARALLEL ?? 64);
    const fake = await startFakeCdek({ validation: 'next-get' });
    const front = await startSlowFront({
      target: new URL(fake.url).origin,
      latencyMs: LATENCY_MS,
      fault: seededFaults(0.05, [{ kind: '503', retryAfterSeconds: 1 }], 20_261_125, /^POST \/v2\/orders$|^GET \/v2\/orders/),
    });
    const url = `${front.origin}/v2`;
    const data = benchTempDir('register');
    try {
      ctx.log(`register: ${orders} orders through ShipDesk, ${parallel} parallel calls`);
      const child = spawnTs<Msg>('bench/workers/register.ts', ['--data-dir', data.dir, '--orders', String(orders), '--url', url, '--parallel', String(parallel)]);
      let ours: Extract<Msg, { type: 'result' }>;
      try {
        const m = await child.next(undefined, 900_000);
        if (m.type === 'error') throw new Error(m.message);
        ours = m;
      } finally {
        await child.finish();
      }
      const counts = fake.registrationCounts();
      const ourCounts = [...counts].filter(([n]) => n.startsWith('REG-')).map(([, c]) => c);
      const faultsOurs = front.stats.faults['503'];
      const mostAtOnce = front.stats.maxInFlight; // the connection's limit, seen where the calls arrive

      ctx.log(`register: baseline, the same calls ${BASELINE_AT_ONCE} at a time`);
      const baselineMs = await baseline(url, orders);
      const baseCounts = [...fake.registrationCounts()].filter(([n]) => n.startsWith('BASE-')).map(([, c]) => c);

      return {
        params: { orders, latencyMs: LATENCY_MS, faults: '5 % 503 with Retry-After: 1 on order calls', parallelCalls: parallel, baselineAtOnce: BASELINE_AT_ONCE },
        figures: {
          ms: ours.ms,
          createMs: ours.createdMs,
          registered: ourCounts.length,
          registeredTwice: ourCounts.filter((c) => c > 1).length,
          uploadingErrors: ours.failed,
          faults503: faultsOurs,
          mostCallsAtOnce: mostAtOnce,
        },
        baseline: { what: `the CDEK adapter alone, ${BASELINE_AT_ONCE} orders at a time, same fake and front`, ms: baselineMs, registered: baseCounts.length },
        ratio: ours.ms / baselineMs,
        ratioOf: 'ShipDesk ms ÷ the same calls 8 at a time ms',
        goals: [
          { figure: 'ms', op: '<=', limit: 20_000 },
          { figure: 'registeredTwice', op: '<=', limit: 0 },
          { figure: 'registered', op: '>=', limit: orders },
          { figure: 'mostCallsAtOnce', op: '<=', limit: parallel },
        ],
      };
    } finally {
      data.remove();
      await front.close();
      await fake.close();
    }
  },
};

/** The adapter's own calls for `count` orders, 8 at a time: find first after a failure, wait out Retry-After. */
async function baseline(url: string, count: number): Promise<number> {
  const http = createNodeHttpFetch();
  const client = createCdekClient({ baseUrl: url, ...FAKE_TEST_ACCOUNT, fetch: http.fetch, clock: systemClock, log: silentLogger });
  const cdek = createCdekProvider({ client, reference: { point: async () => null }, clock: systemClock });
  const requests: ShipmentRequest[] = Array.from({ length: count }, (_, i) => ({
    companyId: 1,
    orderId: i + 1,
    clientNumber: `BASE-${String(i + 1).padStart(5, '0')}`,
    order: orderCreateSchema.parse(cdekOrder(`BASE-${String(i + 1).padStart(5, '0')}`)),
  }));
  const started = performance.now();
  let next = 0;
  async function worker() {
    while (next < requests.length) {
      const request = requests[next++];
      for (let attempt = 1; ; attempt++) {
        try {
          if (!((attempt > 1 && (await cdek.find(request))) || (await cdek.register(request)))) throw new Error('no registration');
          break;
        } catch (error) {
          if (!(error instanceof ProviderUnavailableError) || attempt > 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 1_000));
        }
      }
    }
  }
  await Promise.all(Array.from({ length: BASELINE_AT_ONCE }, worker));
  const ms = performance.now() - started;
  http.close();
  return ms;
}
