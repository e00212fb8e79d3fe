import { ProviderUnavailableError } from '../provider';
import { bodyText, createTransport, parseJsonBody, type Query, type TransportOptions } from '../transport';
import { YandexApiError, YandexAuthError, extractYandexError } from './errors';

/** The platform's hosts (carriers-ru.md): the public test host and production. Paths start with /api/b2b/platform. */
export const YANDEX_TEST_URL = 'https://b2b.taxi.tst.yandex.net';
export const YANDEX_PRODUCTION_URL = 'https://b2b-authproxy.taxi.yandex.net';
const PLATFORM = '/api/b2b/platform';

/** The shared transport's options (the address, the tests' fetch and waits, the log) and the account's token. */
export type YandexClientOptions = Omit<TransportOptions, 'service'> & { token: string };

/**
 * The transport to the platform: a bearer token on every call (OAuth, no expiry by time), Russian answers, JSON both
 * ways. No answer, 429 and 5xx are ProviderUnavailableError (the shared transport); 401/403 are YandexAuthError; any
 * other refusal `{ code, message }` is YandexApiError.
 */
export function createYandexClient(options: YandexClientOptions) {
  const transport = createTransport({ service: 'Yandex Delivery', baseUrl: options.baseUrl, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });

  async function send(method: 'GET' | 'POST', path: string, opts: { query?: Query; body?: unknown; accept?: string }) {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}`, 'Accept-Language': 'ru', Accept: opts.accept ?? 'application/json' };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const reply = await transport.send({ method, path: PLATFORM + path, query: opts.query, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    if (reply.status === 401 || reply.status === 403) {
      const problem = extractYandexError(parseJsonBody(reply.bytes));
      throw new YandexAuthError(`Yandex Delivery did not accept the account's token: ${problem?.message || `HTTP ${reply.status}`}`);
    }
    if (reply.status >= 400) {
      const problem = extractYandexError(parseJsonBody(reply.bytes)) ?? { code: `http_${reply.status}`, message: bodyText(reply.bytes) };
      throw new YandexApiError(problem, reply.status);
    }
    return reply;
  }

  return {
    baseUrl: transport.baseUrl,

    /** A JSON call; the answer's body (undefined when empty). A 2xx body that is not JSON is an outage, not an answer. */
    async call(method: 'GET' | 'POST', path: string, opts: { query?: Query; body?: unknown } = {}): Promise<unknown> {
      const reply = await send(method, path, opts);
      const json = parseJsonBody(reply.bytes);
      if (json === undefined && reply.bytes.length > 0) throw new ProviderUnavailableError(`Yandex Delivery answered ${method} ${path} with a body that is not JSON`);
      return json;
    },

    /** A print form (labels, handover act) as PDF bytes. */
    async pdf(path: string, body: unknown): Promise<Uint8Array> {
      const reply = await send('POST', path, { body, accept: 'application/pdf' });
      if (new TextDecoder().decode(reply.bytes.slice(0, 5)) !== '%PDF-') throw new ProviderUnavailableError(`Yandex Delivery sent ${path} that is not a PDF`);
      return reply.bytes;
    },
  };
}

export type YandexClient = ReturnType<typeof createYandexClient>;
