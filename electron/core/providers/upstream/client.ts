import type { Logger } from '../../logger';
import { message, said } from '../../../../shared/messages';
import { ProviderUnavailableError } from '../provider';
import { createTransport, parseJsonBody as parseJson, type CallInfo, type FetchLike } from '../transport';
import { UpstreamApiError, UpstreamAuthError, upstreamCodes } from './errors';
import { upstreamErrorSchema } from './wire';

export type { FetchLike };

export interface UpstreamClientOptions {
  /** The upstream's base address, e.g. `https://api.example.ru` or `http://192.168.1.20:4318`; a trailing `/v1` is dropped. */
  baseUrl: string;
  /** Sent as is in `Authorization` (the interface's raw token, no scheme). */
  token: string;
  fetch?: FetchLike;
  /** Whole call, answer body included. */
  timeoutMs?: number;
  /** Every call logged (redacted) through the shared transport. */
  log?: Logger;
  /** Told about every HTTP exchange (diagnostics and the tests' numbers). */
  onCall?: (call: UpstreamCallInfo) => void;
}

export type UpstreamCallInfo = CallInfo;

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `https://host/v1/` → `https://host`: paths are given as the document writes them (some with /v1, some without). */
export function normalizeBaseUrl(raw: string): string {
  return raw.trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

/**
 * The transport to an upstream that speaks the delivery interface: JSON both ways, `Authorization: <token>`,
 * a timeout on every call, and one error model. No answer, 429 and 5xx → ProviderUnavailableError (retry
 * later); 401 → UpstreamAuthError (also retried: orders wait for a fixed token); a 4xx with the interface's
 * error body → UpstreamApiError (the caller decides: refusal, "not found", "already canceled"); anything the
 * adapter cannot read (a 404 page of some web server, HTML, broken JSON) → ProviderUnavailableError, since
 * such an answer says nothing about the order.
 */
export function createUpstreamClient(options: UpstreamClientOptions) {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const where = new URL(baseUrl).host;
  const upstream = message('service.upstream', { host: where });
  const transport = createTransport({ service: upstream, baseUrl, fetch: options.fetch, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });

  async function call<T = unknown>(method: HttpMethod, path: string, opts: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: options.token };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(opts.body);
    }
    const { status, bytes } = await transport.send({ method, path, query: opts.query, headers, body });
    const json = parseJson(bytes);
    const problem = upstreamErrorSchema.safeParse(json);
    if (status === 401 || (problem.success && problem.data.code === upstreamCodes.unauthorized)) {
      throw new UpstreamAuthError(said('provider.upstreamTokenRefused', { service: upstream, answer: `HTTP ${status}${problem.success ? `, ${problem.data.code}` : ''}` }));
    }
    if (status >= 400) {
      if (problem.success) throw new UpstreamApiError(status, problem.data);
      throw new ProviderUnavailableError(said('provider.noErrorBody', { service: upstream, status, method, path }));
    }
    if (json === undefined && bytes.length > 0) throw new ProviderUnavailableError(said('provider.notJson', { service: upstream, method, path }));
    return json as T;
  }

  /**
   * A file the upstream made (labels, an act), at the address it answered: like a browser opening the link,
   * without the token (such links work without headers), through the same transport (timeout, log).
   */
  async function download(link: string): Promise<Uint8Array> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new ProviderUnavailableError(said('provider.upstreamFileAddress', { host: where, link: link.slice(0, 200) }));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderUnavailableError(said('provider.upstreamFileNotHttp', { host: where }));
    const files = url.origin === new URL(baseUrl).origin ? transport : createTransport({ service: message('service.upstreamFiles', { host: url.host }), baseUrl: url.origin, fetch: options.fetch, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });
    const path = url.pathname + url.search;
    const { status, bytes } = await files.send({ method: 'GET', path, headers: { Accept: 'application/pdf, text/plain' } });
    if (status !== 200) throw new ProviderUnavailableError(said('provider.upstreamFileHttp', { host: where, status }));
    return bytes;
  }

  return { baseUrl, call, download };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;
