import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../clock';
import type { Logger } from '../logger';
import { message, messageText, wireText } from '../../../shared/messages';
import { closedPort } from '../../../test/helpers/closed-port';
import { ProviderUnavailableError } from './provider';
import { createTransport, MAX_RETRY_AFTER_MS, parseRetryAfter, type CallInfo } from './transport';

/** A service on a real port whose answer each test picks by path. */
async function startService() {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '').split('?')[0];
    if (path === '/busy') res.writeHead(429, { 'Retry-After': '30' }).end();
    else if (path === '/down') res.writeHead(503, { 'Retry-After': new Date(Date.parse('2026-11-25T10:02:00Z')).toUTCString() }).end('maintenance');
    else if (path === '/broken') res.writeHead(500).end('<html>oops</html>');
    else if (path === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 500);
    else if (path === '/refused') res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"code":"bad"}');
    else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function recordingLog() {
  const lines: string[] = [];
  const write = (level: string) => (m: string, fields?: unknown) => lines.push(`${level} ${m} ${JSON.stringify(fields ?? {})}`);
  const log: Logger = { info: write('info'), warn: write('warn'), error: (m) => lines.push(`error ${m}`), child: () => log };
  return { log, lines };
}

describe('the shared transport to delivery services', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  const clock = manualClock(Date.parse('2026-11-25T10:00:00Z'));
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

  it('hands back an ordinary answer, 4xx included, for the adapter to read', async () => {
    const transport = createTransport({ service: 'Test', baseUrl: service.url, clock });
    const ok = await transport.send({ method: 'GET', path: '/ok', query: { a: 1, skip: undefined } });
    expect(ok.status).toBe(200);
    expect(new TextDecoder().decode(ok.bytes)).toBe('{"ok":true}');
    expect((await transport.send({ method: 'POST', path: '/refused', body: '{}' })).status).toBe(400);
    expect(service.seen.find((s) => s.url.startsWith('/ok'))?.url).toBe('/ok?a=1');
  });

  it('a 429 is a temporary refusal that carries the Retry-After seconds', async () => {
    const transport = createTransport({ service: 'Test', baseUrl: service.url, clock });
    const error = await failure(transport.send({ method: 'POST', path: '/busy' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ retryAfterMs: 30_000, message: 'Test answered HTTP 429 to POST /busy (retry after 30 s)' });
  });

  it('a 503 with Retry-After as a date waits until that date; a 500 without one is retried on the usual backoff', async () => {
    const transport = createTransport({ service: 'Test', baseUrl: service.url, clock });
    expect(await failure(transport.send({ method: 'GET', path: '/down' }))).toMatchObject({ retryAfterMs: 120_000 });
    const plain = await failure(transport.send({ method: 'GET', path: '/broken' }));
    expect(plain).toBeInstanceOf(ProviderUnavailableError);
    expect((plain as ProviderUnavailableError).retryAfterMs).toBeUndefined();
  });

  it('no answer within the timeout, and no server at all, are temporary too', async () => {
    const transport = createTransport({ service: 'Test', baseUrl: service.url, clock, timeoutMs: 50 });
    expect(await failure(transport.send({ method: 'GET', path: '/slow' }))).toMatchObject({ name: 'ProviderUnavailableError', message: 'Test did not answer GET /slow within 50 ms' });
    const nowhere = createTransport({ service: 'Nowhere', baseUrl: 'http://127.0.0.1:1', clock });
    const error = await failure(nowhere.send({ method: 'GET', path: '/x' }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/^Nowhere could not be reached \(GET \/x\)/);
  });

  it('a refused connection keeps the system’s words on the wire and is said by key, the service by its name, in the window', async () => {
    const cdek = createTransport({ service: message('service.cdek'), baseUrl: `http://127.0.0.1:${await closedPort()}`, clock });
    const error = (await failure(cdek.send({ method: 'POST', path: '/oauth/token' }))) as ProviderUnavailableError;
    expect(error.message).toMatch(/^CDEK could not be reached \(POST \/oauth\/token\): connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(wireText(error.ref!)).toBe(error.message);
    expect(messageText(error.ref!, 'ru')).toMatch(/^СДЭК: нет связи \(POST \/oauth\/token\): соединение отклонено \(127\.0\.0\.1:\d+\)$/);
  });

  it('logs every call once, with a trace id the service also receives, and never a secret', async () => {
    const { log, lines } = recordingLog();
    const calls: CallInfo[] = [];
    const transport = createTransport({ service: 'Test', baseUrl: service.url, clock, log, onCall: (c) => calls.push(c) });
    await transport.send({
      method: 'POST',
      path: '/ok',
      query: { client_secret: 'very-secret-1', access_token: 'very-secret-2', city: 'Москва' },
      headers: { Authorization: 'Bearer very-secret-3' },
      body: 'client_secret=very-secret-4',
    });
    await failure(transport.send({ method: 'GET', path: '/busy' }));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(/very-secret/);
    expect(lines[0]).toMatch(/^info service call: POST http:\/\/127\.0\.0\.1:\d+\/ok\?client_secret=%5Bredacted%5D&access_token=%5Bredacted%5D&city=%D0%9C.* → 200 in \d+ ms /);
    expect(lines[1]).toMatch(/^warn service call: GET http:\/\/127\.0\.0\.1:\d+\/busy → 429 in \d+ ms .*"retryAfterMs":30000/);
    const sent = service.seen.at(-2)!;
    expect(sent.headers['x-request-id']).toBe(calls[0].traceId);
    expect(lines[0]).toContain(calls[0].traceId);
  });

  it('reads Retry-After in both of its forms and caps a very long wait', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
