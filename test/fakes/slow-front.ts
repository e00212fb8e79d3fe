import { request as forward, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { seededRandom, startFakeHttp } from './fake-http';

/** What the front does instead of passing a call on: a 503 or 429 with its Retry-After, or no answer at all. */
export type FrontFault = { kind: '503' | '429'; retryAfterSeconds?: number } | { kind: 'hang' };

export interface SlowFrontOptions {
  /** Where calls go (a fake service's origin, e.g. http://127.0.0.1:1234). */
  target: string;
  /** Each answer (a passed-on one or a fault) leaves this long after the call came in. */
  latencyMs?: number;
  /** Chooses a fault for a call, or null to pass it on (see seededFaults). */
  fault?: (method: string, path: string) => FrontFault | null;
}

/** The front's own refusal, in the JSON error form the services behind it use. */
function refusal(kind: '503' | '429') {
  return kind === '429' ? { errors: [{ code: 'too_many_requests', message: 'Too many requests' }] } : { errors: [{ code: 'service_unavailable', message: 'Service unavailable' }] };
}

/**
 * A reverse proxy in front of a fake delivery service that makes it behave like a real one far away: every
 * answer takes `latencyMs`, and some calls fail the way services fail (503 / 429 with Retry-After, no answer)
 * without reaching the service. The fake behind keeps its own books (what it registered, how often). Built on the
 * fakes' shared server (fake-http.ts), which reads the calls and holds the unanswered ones; the front adds the
 * latency, its own fault rule and the passing on.
 */
export async function startSlowFront(options: SlowFrontOptions) {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latency = options.latencyMs ?? 0;
  let fault = options.fault ?? (() => null);
  const stats = { calls: 0, passed: 0, inFlight: 0, maxInFlight: 0, faults: { '503': 0, '429': 0, hang: 0 } as Record<FrontFault['kind'], number> };
  const later = (fn: () => void) => (latency > 0 ? setTimeout(fn, latency) : setImmediate(fn));

  function pass(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const headers = { ...req.headers, host: target.host };
    const out = forward({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        stats.passed++;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    out.on('error', () => res.destroy());
    out.end(body);
  }

  const server = await startFakeHttp({
    routeKey: (method, url) => `${method} ${url.pathname}`,
    faultBody: (status) => refusal(status === 429 ? '429' : '503'),
    handle({ req, res, url, bytes, hang }) {
      stats.calls++;
      stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
      res.on('close', () => stats.inFlight--);
      const chosen = fault(req.method ?? 'GET', url.pathname);
      if (chosen) stats.faults[chosen.kind]++;
      if (chosen?.kind === 'hang') return hang();
      later(() => {
        if (!chosen) return pass(req, res, bytes);
        const text = JSON.stringify(refusal(chosen.kind));
        const wait = chosen.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(chosen.retryAfterSeconds) };
        res.writeHead(Number(chosen.kind), { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...wait });
        res.end(text);
      });
    },
  });

  return {
    /** The front's origin; append the service's own path prefix (e.g. /v2). */
    origin: server.origin,
    stats,
    /** Replaces the fault rule (a service going down or coming back). */
    setFault(rule: (method: string, path: string) => FrontFault | null) {
      fault = rule;
    },
    async close() {
      await server.close();
      agent.destroy();
    },
  };
}

export type SlowFront = Awaited<ReturnType<typeof startSlowFront>>;

/**
 * Faults at a rate from a seeded source (the same seed, the same faults), picked evenly from `kinds`;
 * `only` limits them to matching calls ("POST /v2/orders").
 */
export function seededFaults(rate: number, kinds: FrontFault[], seed = 1, only?: RegExp): (method: string, path: string) => FrontFault | null {
  const random = seededRandom(seed);
  return (method, path) => {
    if (only && !only.test(`${method} ${path}`)) return null;
    if (random() >= rate) return null;
    return kinds[Math.floor(random() * kinds.length)];
  };
}
