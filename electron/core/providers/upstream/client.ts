import { ProviderUnavailableError } from '../provider';
import { UpstreamApiError, UpstreamAuthError, upstreamCodes } from './errors';
import { upstreamErrorSchema } from './wire';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface UpstreamClientOptions {
  /** The upstream's base address, e.g. `https://api.example.ru` or `http://192.168.1.20:4318`; a trailing `/v1` is dropped. */
  baseUrl: string;
  /** Sent as is in `Authorization` (the interface's raw token, no scheme). */
  token: string;
  fetch?: FetchLike;
  /** Whole call, answer body included. */
  timeoutMs?: number;
  /** Told about every HTTP exchange (diagnostics and the tests' numbers). */
  onCall?: (call: UpstreamCallInfo) => void;
}

export interface UpstreamCallInfo {
  method: string;
  path: string;
  status?: number;
  failure?: 'timeout' | 'network';
  ms: number;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

const decoder = new TextDecoder();

function parseJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

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
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const where = new URL(baseUrl).host;

  async function call<T = unknown>(method: HttpMethod, path: string, opts: CallOptions = {}): Promise<T> {
    const url = new URL(baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: options.token };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(opts.body);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const started = Date.now();
    let status: number;
    let bytes: Uint8Array;
    let retryAfter: string | null;
    try {
      const res = await doFetch(url.toString(), { method, headers, body, signal: controller.signal });
      bytes = new Uint8Array(await res.arrayBuffer());
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      options.onCall?.({ method, path, status, ms: Date.now() - started });
    } catch (error) {
      const timedOut = controller.signal.aborted;
      options.onCall?.({ method, path, failure: timedOut ? 'timeout' : 'network', ms: Date.now() - started });
      if (timedOut) throw new ProviderUnavailableError(`the upstream ${where} did not answer ${method} ${path} within ${timeoutMs} ms`);
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new ProviderUnavailableError(`the upstream ${where} could not be reached (${method} ${path}): ${reason}`);
    } finally {
      clearTimeout(timer);
    }

    const json = parseJson(bytes);
    if (status === 429 || status >= 500) {
      throw new ProviderUnavailableError(`the upstream ${where} answered HTTP ${status} to ${method} ${path}${retryAfter ? ` (retry after ${retryAfter} s)` : ''}`);
    }
    const problem = upstreamErrorSchema.safeParse(json);
    if (status === 401 || (problem.success && problem.data.code === upstreamCodes.unauthorized)) {
      throw new UpstreamAuthError(`the upstream ${where} does not accept the connection's token (HTTP ${status}${problem.success ? `, ${problem.data.code}` : ''}); enter the token again`);
    }
    if (status >= 400) {
      if (problem.success) throw new UpstreamApiError(status, problem.data);
      throw new ProviderUnavailableError(`the upstream ${where} answered HTTP ${status} to ${method} ${path} without the interface's error body; is the address right?`);
    }
    if (json === undefined && bytes.length > 0) throw new ProviderUnavailableError(`the upstream ${where} answered ${method} ${path} with a body that is not JSON`);
    return json as T;
  }

  return { baseUrl, call };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;
