import autocannon from 'autocannon';
import { percentile } from './stats';

export interface LoadOptions {
  base: string;
  token: string;
  connections: number;
  durationSec: number;
  method: 'GET' | 'POST';
  /** Path of the request number n (0-based): lets every request ask something different. */
  path: (n: number) => string;
  /** Body of the request number n (POST). */
  body?: (n: number) => string;
}

export interface LoadFigures {
  /** Successful (2xx) answers per second over the whole run. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
  /** The first non-2xx answer, to explain a failing run. */
  firstFailure?: string;
}

/**
 * Drives the server with autocannon (keep-alive connections, one request in flight each) and takes
 * our own latency samples from its `response` events: autocannon's histogram keeps whole
 * milliseconds, too coarse for a 10 ms goal.
 */
export async function loadTest(options: LoadOptions): Promise<LoadFigures> {
  let n = 0;
  const latencies: number[] = [];
  let non2xx = 0;
  let firstFailure: string | undefined;
  const headers: Record<string, string> = { authorization: options.token, accept: 'application/json' };
  if (options.method === 'POST') headers['content-type'] = 'application/json';
  const started = performance.now();
  const instance = autocannon({
    url: options.base,
    connections: options.connections,
    duration: options.durationSec,
    timeout: 30,
    requests: [
      {
        method: options.method,
        path: options.path(0),
        headers,
        setupRequest: (req) => {
          const i = n++;
          return { ...req, path: options.path(i), ...(options.body ? { body: options.body(i) } : {}) };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else non2xx++;
  });
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  if (non2xx > 0) firstFailure = await probeFailure(options, n);
  return {
    rps: latencies.length / seconds,
    ok: latencies.length,
    non2xx,
    errors: result.errors + result.timeouts,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? latencies.reduce((a, b) => Math.max(a, b), 0) : Number.NaN,
    seconds,
    firstFailure,
  };
}

/** Sends one more request like the run's and returns its answer, to say why answers were not 2xx. */
async function probeFailure(options: LoadOptions, n: number): Promise<string> {
  const res = await fetch(options.base + options.path(n), {
    method: options.method,
    headers: { authorization: options.token, 'content-type': 'application/json' },
    body: options.body?.(n),
  });
  return `${res.status} ${(await res.text()).slice(0, 500)}`;
}
