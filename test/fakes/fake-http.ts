/**
 * What every local fake of a delivery service shares: a real node:http server on 127.0.0.1:0, request counting per
 * route, and faults on demand or at a seeded rate. '429' / '500' / '502' / '503' are answered at once without doing
 * the work; 'hang' is never answered and the work is not done (a lost request); 'hang-after' does the work and
 * never answers (a lost reply); 'reset' drops the connection. Each fake answers faults in its service's own form.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import PDFDocument from 'pdfkit';

export type FaultKind = '429' | '500' | '502' | '503' | 'hang' | 'hang-after' | 'reset';

export interface FaultOptions {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  /** Limits the faults to matching "METHOD /path" keys. */
  routes?: RegExp;
}

/** A seeded random source (mulberry32): the same seed gives the same faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

export const sendPdf = (res: ServerResponse, pdf: Buffer, name: string) => {
  res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': pdf.length, 'Content-Disposition': `attachment; filename="${name}"` });
  res.end(pdf);
};

/** A real PDF (pdfkit), one page per entry, each page its lines of (Latin) text: what a service's print form carries. */
export function printForm(pages: string[][], size: [number, number] = [283, 425]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size, margin: 18, autoFirstPage: false, info: { Producer: 'fake delivery service' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const lines of pages) {
      doc.addPage();
      doc.fontSize(11);
      for (const line of lines) doc.text(line.replace(/[^\x20-\x7e]/g, '?'));
    }
    doc.end();
  });
}

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  raw: string;
  /** The body as it came, byte for byte. */
  bytes: Buffer;
  /** The body as JSON; undefined when empty or not JSON. */
  body: unknown;
  /** Leaves the call unanswered until the server closes (a service that never replies). */
  hang(): void;
}

export interface FakeHttpOptions {
  faults?: FaultOptions;
  /** The route key a request is counted and faulted under (ids folded so one route is one key). */
  routeKey(method: string, url: URL): string;
  /** What the service answers when a fault is a status: its own error form. */
  faultBody(status: number): unknown;
  handle(exchange: Exchange): void | Promise<void>;
}

/** Starts the server; `close()` stops it, dropping hanging answers. */
export async function startFakeHttp(options: FakeHttpOptions) {
  const random = seededRandom(options.faults?.seed ?? 1);
  let faultRate = options.faults?.rate ?? 0;
  const kinds = options.faults?.kinds ?? [];
  const forced: { kind: FaultKind; route?: RegExp }[] = [];
  const stats = { requests: 0, byRoute: {} as Record<string, number>, faults: {} as Partial<Record<FaultKind, number>> };
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();

  function pickFault(key: string): FaultKind | null {
    const i = forced.findIndex((f) => !f.route || f.route.test(key));
    if (i >= 0) return forced.splice(i, 1)[0].kind;
    if (faultRate > 0 && kinds.length && (!options.faults?.routes || options.faults.routes.test(key)) && random() < faultRate) {
      return kinds[Math.floor(random() * kinds.length)];
    }
    return null;
  }

  const hang = (res: ServerResponse) => {
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
  };

  async function run(exchange: Exchange) {
    try {
      await options.handle(exchange);
    } catch (error) {
      if (!exchange.res.headersSent) sendJson(exchange.res, 500, options.faultBody(500));
      else exchange.res.destroy(error as Error);
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const key = options.routeKey(req.method ?? 'GET', url);
      stats.requests++;
      stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const fault = pickFault(key);
      if (fault) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
      if (fault === 'reset') return req.socket.destroy();
      if (fault === 'hang') return hang(res);
      if (fault === '429') return sendJson(res, 429, options.faultBody(429), { 'Retry-After': '1' });
      if (fault === '500' || fault === '502' || fault === '503') return sendJson(res, Number(fault), options.faultBody(Number(fault)));
      if (fault === 'hang-after') {
        // The work is done; its answer is lost.
        const sink = new Proxy(res, {
          get(target, prop) {
            if (prop === 'writeHead' || prop === 'end' || prop === 'write') return () => sink;
            if (prop === 'headersSent') return false;
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        });
        hang(res);
        return void run({ req, res: sink, url, raw, bytes, body, hang: () => hang(res) });
      }
      void run({ req, res, url, raw, bytes, body, hang: () => hang(res) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    /** The next matching request(s) fail this way. */
    failNext(kind: FaultKind, count = 1, route?: RegExp) {
      for (let i = 0; i < count; i++) forced.push({ kind, route });
    },
    setFaultRate(rate: number) {
      faultRate = rate;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
