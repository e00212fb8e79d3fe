import { readFileSync } from 'node:fs';
import { ProviderUnavailableError } from '../provider';
import { createUpstreamClient, normalizeBaseUrl, type FetchLike } from './client';
import { UpstreamApiError, UpstreamAuthError } from './errors';

/** The transport's error model, against answers recorded from a real upstream (fixtures/errors.json) and made-up failures. */
const errors = JSON.parse(readFileSync(new URL('./fixtures/errors.json', import.meta.url), 'utf8'));

const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function clientWith(answer: (url: string, init: RequestInit) => Response | Promise<Response>, timeoutMs = 5_000) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, init });
    return answer(url, init);
  };
  return { client: createUpstreamClient({ baseUrl: 'https://agg.example.ru/v1/', token: 'raw-token-1', fetch, timeoutMs }), seen };
}

describe('upstream client: what goes out', () => {
  it('sends the raw token, asks for JSON, and writes paths as the document does (with or without /v1)', async () => {
    const { client, seen } = clientWith(() => reply(200, { orderId: '5', created: '2026-03-01T10:00:00+03:00' }));
    expect(await client.call('POST', '/orders', { body: { order: { clientNumber: 'A' } } })).toEqual({ orderId: '5', created: '2026-03-01T10:00:00+03:00' });
    await client.call('GET', '/v1/lists/points', { query: { limit: 1000, offset: 0, skip: undefined } });
    expect(seen[0].url).toBe('https://agg.example.ru/orders');
    expect(seen[0].init.headers).toEqual({ Accept: 'application/json', Authorization: 'raw-token-1', 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(seen[0].init.body).toBe('{"order":{"clientNumber":"A"}}');
    expect(seen[1].url).toBe('https://agg.example.ru/v1/lists/points?limit=1000&offset=0');
    expect(normalizeBaseUrl(' http://192.168.1.20:4318/ ')).toBe('http://192.168.1.20:4318');
  });

  it('an empty success (204) is no error', async () => {
    const { client } = clientWith(() => new Response(null, { status: 204 }));
    expect(await client.call('DELETE', '/orders/5')).toBeUndefined();
  });
});

describe('upstream client: what comes back', () => {
  it.each([
    ['429 with Retry-After', () => reply(429, { code: '050001', message: 'Too many' }, { 'Retry-After': '30' }), /HTTP 429 .*retry after 30 s/],
    ['500 with the error body', () => reply(500, { code: '050001', message: 'Internal error' }), /HTTP 500/],
    ['502 from a proxy', () => reply(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }), /HTTP 502/],
    ['a refused connection', () => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.5:443') })), /could not be reached .*ECONNREFUSED/],
    ['a 404 page that is not the interface', () => reply(404, '<html>Not found</html>', { 'Content-Type': 'text/html' }), /without the interface's error body; is the address right/],
    ['a success that is not JSON', () => reply(200, '<html>login</html>', { 'Content-Type': 'text/html' }), /not JSON/],
  ])('%s → unavailable (retried later)', async (_what, answer, message) => {
    const { client } = clientWith(answer);
    const error: any = await client.call('GET', '/orders/5/status').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(message);
  });

  it('no answer within the timeout → unavailable', async () => {
    const { client } = clientWith(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
      20,
    );
    await expect(client.call('GET', '/orders/5/status')).rejects.toThrow(/did not answer GET \/orders\/5\/status within 20 ms/);
  });

  it('a refused token (401, 040101) → an auth error, which orders wait out like an outage', async () => {
    const { client } = clientWith(() => reply(errors.badToken.status, errors.badToken.response));
    const error: any = await client.call('GET', '/v1/lists/providers').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamAuthError);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/does not accept the connection's token \(HTTP 401, 040101\)/);
  });

  it.each(['duplicate', 'cancelAgain', 'cancelUnknown', 'cannotCancel'])('the interface\'s error body (%s) → an API error with code, status and fields', async (name) => {
    const { status, response } = errors[name];
    const { client } = clientWith(() => reply(status, response));
    const error: any = await client.call('GET', '/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamApiError);
    expect(error).toMatchObject({ httpStatus: status, code: response.code, description: response.description, fieldErrors: response.errors ?? [] });
  });
});
