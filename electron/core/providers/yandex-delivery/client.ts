import { message, said } from '../../../../shared/messages';
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
/** Yandex Delivery as messages name it. */
export const YANDEX = message('service.yandex');

export function createYandexClient(options: YandexClientOptions) {
  const transport = createTransport({ service: YANDEX, baseUrl: options.baseUrl, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });

  async function send(method: 'GET' | 'POST', path: string, opts: { query?: Query; body?: unknown; accept?: string }) {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}`, 'Accept-Language': 'ru', Accept: opts.accept ?? 'application/json' };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const reply = await transport.send({ method, path: PLATFORM + path, query: opts.query, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    if (reply.status === 401 || reply.status === 403) {
      const problem = extractYandexError(parseJsonBody(reply.bytes));
      throw new YandexAuthError(said('provider.tokenRefused', { service: YANDEX, detail: problem?.message || `HTTP ${reply.status}` }));
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
      if (json === undefined && reply.bytes.length > 0) throw new ProviderUnavailableError(said('provider.notJson', { service: YANDEX, method, path }));
      return json;
    },

    /** A print form (labels, handover act) as PDF bytes. */
    async pdf(path: string, body: unknown): Promise<Uint8Array> {
      const reply = await send('POST', path, { body, accept: 'application/pdf' });
      if (new TextDecoder().decode(reply.bytes.slice(0, 5)) !== '%PDF-') throw new ProviderUnavailableError(said('provider.sentNotPdf', { service: YANDEX, path }));
      return reply.bytes;
    },
  };
}

export type YandexClient = ReturnType<typeof createYandexClient>;
