import { benchTempDir, spawnTs, startBenchServer, type TsChild } from '../lib/child';
import type { Benchmark } from '../lib/report';
import { largest, percentile } from '../lib/stats';
import { startStallProbe } from '../lib/stall-probe';
import { timedCall as call } from '../lib/timed-call';

/** What the upload sender (bench/workers/upload-sender.ts) says. */
type SenderMessage = { type: 'ready' } | { type: 'sent'; statuses: number[] } | { type: 'error'; message: string };

/** The monotonic clock in µs: the clock of V8's CPU profiles, in every process of the machine. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Sequential GET /v1/lists/providers while `busy` runs: the latency each caller sees, and when the worst ended. */
async function probe(base: string, token: string, busy: Promise<unknown>): Promise<{ times: number[]; worstEndUs: number }> {
  const times: number[] = [];
  let worst = -1;
  let worstEndUs = 0;
  let done = false;
  busy.then(() => (done = true), () => (done = true));
  while (!done) {
    const { ms } = await call(base, token, 'GET', '/v1/lists/providers');
    if (ms > worst) [worst, worstEndUs] = [ms, monotonicUs()];
    times.push(ms);
  }
  return { times, worstEndUs };
}

/**
 * Large request bodies must not freeze everyone else: three parallel 40 MB XML uploads, and the worst
 * wait of a concurrent `GET /v1/lists/providers`. Baseline: the same probe against the idle server.
 */
export const bodiesBench: Benchmark = {
  name: 'bodies',
  title: 'Three parallel 40 MB XML uploads: the worst wait of a concurrent GET /v1/lists/providers',
  async run(ctx) {
    const token = 'bench-token-bodies';
    const uploads = 3;
    const size = ctx.quick ? 4 * 1024 * 1024 : 40 * 1024 * 1024;
    const rounds = ctx.quick ? 1 : 3;
    const data = benchTempDir('bodies');
    try {
      const server = await startBenchServer(data.dir, token);
      let sender: TsChild<SenderMessage> | undefined;
      try {
        // The uploads go out from a process of their own: this one only times the probes.
        sender = spawnTs<SenderMessage>('bench/workers/upload-sender.ts', ['--base', server.base, '--token', token, '--bytes', String(size), '--uploads', String(uploads)]);
        await sender.next((m) => m.type === 'ready', 120_000);
        for (let i = 0; i < 20; i++) await call(server.base, token, 'GET', '/v1/lists/providers'); // warm
        const idle: number[] = [];
        for (let i = 0; i < 200; i++) idle.push((await call(server.base, token, 'GET', '/v1/lists/providers')).ms);
        const seen: number[] = [];
        const statuses = new Set<number>();
        // This process only times the probes; its own worst late tick is reported beside (a wait that long may be its own).
        const ownLoop = startStallProbe();
        let worstEndUs = 0;
        for (let round = 0; round < rounds; round++) {
          ctx.log(`bodies: round ${round + 1}/${rounds}, ${uploads} × ${(size / 1024 / 1024).toFixed(0)} MB`);
          sender.send({ type: 'send' });
          const sending = sender.next<SenderMessage>((m) => m.type !== 'ready').then((m) => {
            if (m.type === 'error') throw new Error(`the uploads failed: ${m.message}`);
            if (m.type === 'sent') for (const status of m.statuses) statuses.add(status);
          });
          const before = largest(seen);
          const probed = await probe(server.base, token, sending);
          if (largest(probed.times) > before) worstEndUs = probed.worstEndUs;
          for (const ms of probed.times) seen.push(ms);
          await sending;
        }
        const own = ownLoop.stop();
        const idleP50 = percentile(idle, 50);
        const worst = largest(seen);
        // the server's profile over the worst wait (bench/tools/profile-summary.ts)
        if (process.env.BENCH_CPU_PROF) ctx.log(`bodies worst wait: --window ${worstEndUs}:${Math.ceil(worst + 10)}`);
        return {
          params: { uploads, bodyMb: Math.round(size / 1024 / 1024), rounds, format: 'xml' },
          figures: {
            maxWaitMs: worst,
            /** The worst wait beyond an idle request's own time: the stall a caller felt. */
            maxStallMs: worst - idleP50,
            p99WaitMs: percentile(seen, 99),
            probes: seen.length,
            /** The measuring process's own worst late tick meanwhile: a wait this long may be the client's, not the server's. */
            clientStallMs: own.maxStallMs,
          },
          baseline: { what: 'GET /v1/lists/providers on the idle server', p50Ms: idleP50, maxMs: largest(idle) },
          ratio: worst / Math.max(idleP50, 0.001),
          ratioOf: 'worst wait under uploads ÷ idle median',
          goals: [{ figure: 'maxStallMs', op: '<', limit: 100 }],
          notes: [`upload answers: ${[...statuses].join(', ')}`],
        };
      } finally {
        await sender?.kill();
        await server.stop().catch(() => {});
      }
    } finally {
      data.remove();
    }
  },
};
