import { systemClock, type Clock } from '../../clock';
import type { Logger } from '../../logger';
import { message, said } from '../../../../shared/messages';
import { ProviderUnavailableError } from '../provider';
import { createTokenCache } from '../token-cache';
import { bodyText, createTransport, parseJsonBody as parseJson, type CallInfo, type FetchLike, type HttpReply, type Query } from '../transport';
import { CdekApiError, CdekAuthError, extractCdekErrors, tokenCodes } from './errors';
import { cdekTokenSchema } from './wire';

/** CDEK's hosts (cdek-v2.md). Test orders on the test host are never delivered. */
export const CDEK_PRODUCTION_URL = 'https://api.cdek.ru/v2';
export const CDEK_TEST_URL = 'https://api.edu.cdek.ru/v2';
/** CDEK's public test account, published for integrators; works only on the test host. */
export const CDEK_TEST_ACCOUNT = { clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP', clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5' } as const;

export type { FetchLike };

export interface CdekClientOptions {
  /** `https://api.cdek.ru/v2`, the test host or any URL (the local fake); paths are appended to it. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: FetchLike;
  clock?: Clock;
  /** Whole call, answer body included. */
  timeoutMs?: number;
  /** A token is renewed this long before it expires (at most half its lifetime). */
  refreshBeforeMs?: number;
  /** Every call logged (redacted) through the shared transport. */
  log?: Logger;
  /** Told about every HTTP exchange (diagnostics and the tests' numbers). */
  onCall?: (call: CdekCallInfo) => void;
}

export type CdekCallInfo = CallInfo;

export interface CdekReply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  query?: Query;
  body?: unknown;
}

/** CDEK as messages name it. */
export const CDEK = message('service.cdek');

/**
 * The transport to CDEK API v2: OAuth client-credentials token (cached, renewed shortly before expiry and
 * once on an expired-token answer), a timeout on every call, and one error model: no answer, 429 and 5xx
 * are ProviderUnavailableError (retry later, after Retry-After); an answer with CDEK error codes is CdekApiError.
 */
export function createCdekClient(options: CdekClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? systemClock;

  const transport = createTransport({ service: CDEK, baseUrl, fetch: options.fetch, clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });
  const exchange = (method: string, path: string, init: { headers: Record<string, string>; body?: string; query?: Query }): Promise<HttpReply> =>
    transport.send({ method, path, ...init });

  async function requestToken(): Promise<{ value: string; expiresAt: number }> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret });
    const reply = await exchange('POST', '/oauth/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    });
    const json = parseJson(reply.bytes);
    const problem = extractCdekErrors(json);
    if (problem || reply.status >= 400) {
      const first = problem?.errors[0];
      const detail = first ? `${first.code}${first.message ? ` (${first.message})` : ''}` : `HTTP ${reply.status}`;
      throw new CdekAuthError(said('provider.credentialsRefused', { service: CDEK, detail }), first?.code);
    }
    const parsed = cdekTokenSchema.safeParse(json);
    if (!parsed.success) throw new ProviderUnavailableError(said('provider.noToken', { service: CDEK }));
    return { value: parsed.data.access_token, expiresAt: clock.now() + parsed.data.expires_in * 1000 };
  }
  const tokens = createTokenCache({ clock, renewBeforeMs: options.refreshBeforeMs ?? 60_000, issue: requestToken });

  async function authorized(method: string, path: string, opts: CallOptions, accept: string, bearer: string): Promise<HttpReply> {
    const headers: Record<string, string> = { Accept: accept, Authorization: `Bearer ${bearer}` };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    return exchange(method, path, { headers, body, query: opts.query });
  }

  const tokenRefused = (reply: HttpReply) =>
    reply.status === 401 || (extractCdekErrors(parseJson(reply.bytes))?.errors.some((e) => tokenCodes.includes(e.code)) ?? false);

  /** Sends a call with the token; an expired-token answer renews the token and repeats the call once. */
  async function send(method: string, path: string, opts: CallOptions, accept: string): Promise<HttpReply> {
    const { reply, refusedAgain } = await tokens.send((bearer) => authorized(method, path, opts, accept, bearer), tokenRefused);
    if (refusedAgain) throw new CdekAuthError(said('provider.freshTokenRefused', { service: CDEK, method, path, status: reply.status }));
    return reply;
  }

  return {
    baseUrl,

    /** A JSON call. Throws CdekApiError when the answer carries CDEK error codes (any of the three forms). */
    async call<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, opts: CallOptions = {}): Promise<CdekReply<T>> {
      const reply = await send(method, path, opts, 'application/json');
      const json = parseJson(reply.bytes);
      const problem = extractCdekErrors(json);
      const hasEntity = typeof json === 'object' && json !== null && 'entity' in json;
      if (reply.status >= 400 || (problem && (problem.form !== 'requests' || !hasEntity))) {
        throw new CdekApiError(problem?.errors ?? [{ code: `http_${reply.status}`, message: bodyText(reply.bytes) }], problem?.form ?? 'errors', reply.status);
      }
      if (json === undefined && reply.bytes.length > 0) throw new ProviderUnavailableError(said('provider.notJson', { service: CDEK, method, path }));
      return { status: reply.status, headers: reply.headers, body: json as T };
    },

    /** A binary download (print forms). */
    async bytes(path: string): Promise<Uint8Array> {
      const reply = await send('GET', path, {}, 'application/pdf');
      if (reply.status >= 400) {
        const problem = extractCdekErrors(parseJson(reply.bytes));
        throw new CdekApiError(problem?.errors ?? [{ code: `http_${reply.status}`, message: '' }], problem?.form ?? 'errors', reply.status);
      }
      return reply.bytes;
    },

    /** Gets a token now (the "test connection" check); returns its lifetime in seconds. */
    authenticate: (): Promise<{ expiresInSeconds: number }> => tokens.renew(),

    stats: () => ({ tokensIssued: tokens.issued() }),
  };
}

export type CdekClient = ReturnType<typeof createCdekClient>;
