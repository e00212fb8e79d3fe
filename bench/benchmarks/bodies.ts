import { request } from 'node:http';
import { benchTempDir, startBenchServer } from '../lib/child';
import { createRng } from '../lib/prng';
import type { Benchmark } from '../lib/report';
import { largest, percentile } from '../lib/stats';
import { startStallProbe } from '../lib/stall-probe';

/** One call, resolved with its wall time in ms and status. */
function call(base: string, token: string, method: string, path: string, body?: Buffer, contentType = 'application/xml'): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method,
      agent: false,
      headers: { Authorization: token, Accept: 'application/json', ...(body ? { 'Content-Type': contentType, 'Content-Length': body.length } : {}) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An XML upload body of about `bytes`: a file.base64 of random bytes (the server reads the whole body before it can tell). */
function xmlUpload(bytes: number, seed: number): Buffer {
  const rng = createRng(seed);
  const raw = Buffer.alloc(Math.floor((bytes * 3) / 4));
  for (let i = 0; i < raw.length; i += 4) raw.writeUInt32LE(Math.floor(rng.next() * 2 ** 32) >>> 0, Math.min(i, raw.length - 4));
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><request><providerKey>sandbox-express</providerKey><mode>async</mode>` +
      `<file><base64>${raw.toString('base64')}</base64></file>` +
      `<columnSettings><timeFormat>H:i</timeFormat><nameFormat>0</nameFormat><itemsNewRow>1</itemsNewRow></columnSettings>` +
      `<columnMap><order><clientNumber>A</clientNumber></order></columnMap></request>`,
  );
}

/** The monotonic clock in µs: the clock of V8's CPU profiles, in every process of the machine. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Sequential GET /v1/lists/providers while `busy` runs: the latency each caller sees, and when the worst ended. */
async function probe(base: string, token: string, busy: Promise<unknown>): Promise<{ times: number[]; worstEndUs: number }> {
  const times: number[] = [];
  let worst = -1;
  let worstEndUs = 0;
  let done = false;
  void busy.finally(() => (done = true));
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
      try {
        const bodies = Array.from({ length: uploads }, (_, i) => xmlUpload(size, 7 + i));
        for (let i = 0; i < 20; i++) await call(server.base, token, 'GET', '/v1/lists/providers'); // warm
        const idle: number[] = [];
        for (let i = 0; i < 200; i++) idle.push((await call(server.base, token, 'GET', '/v1/lists/providers')).ms);
        const seen: number[] = [];
        const statuses = new Set<number>();
        // This process sends the uploads and times the probes: its own late ticks would count as the server's.
        const ownLoop = startStallProbe();
        let worstEndUs = 0;
        for (let round = 0; round < rounds; round++) {
          ctx.log(`bodies: round ${round + 1}/${rounds}, ${uploads} × ${(size / 1024 / 1024).toFixed(0)} MB`);
          const sending = Promise.all(bodies.map((body) => call(server.base, token, 'POST', '/v1/orders/upload', body).then((r) => statuses.add(r.status))));
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
        await server.stop().catch(() => {});
      }
    } finally {
      data.remove();
    }
  },
};
