import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock';
import type { Logger } from '../logger';
import { logServiceCall } from '../logging/service-call';
import { ProviderUnavailableError } from './provider';
import { said, type MessageParam } from '../../../shared/messages';
import { networkReason } from './network-reason';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** One HTTP exchange as the transport tells it (diagnostics, logs and the tests' numbers). Never carries secrets. */
export interface CallInfo {
  /** Sent as X-Request-Id, so the service's logs (or an upstream ShipDesk's) can be matched with ours. */
  traceId: string;
  method: string;
  path: string;
  status?: number;
  /** When no answer came. */
  failure?: 'timeout' | 'network';
  ms: number;
  /** Milliseconds the service asked us to wait (429/503 with Retry-After). */
  retryAfterMs?: number;
}

export interface TransportOptions {
  /** How the service is named in messages, by key: `message('service.cdek')` ("CDEK" on the wire, "СДЭК" in the window). */
  service: MessageParam;
  /** Prefix of every path (no trailing slash). */
  baseUrl: string;
  fetch?: FetchLike;
  clock?: Clock;
  /** Whole call, answer body included. */
  timeoutMs?: number;
  /** Every call goes to the log as one line (logging/service-call.ts), secrets redacted; a child naming the service. */
  log?: Logger;
  onCall?: (call: CallInfo) => void;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface HttpRequest {
  method: string;
  path: string;
  query?: Query;
  headers?: Record<string, string>;
  body?: string;
  /**
   * A 5xx answer the adapter reads itself instead of taking it for an outage (a SOAP Fault rides on HTTP 500);
   * 429 and other 5xx stay outages.
   */
  readsOwn5xx?: (status: number, bytes: Uint8Array) => boolean;
}

/** An answer that is neither a timeout nor 429/5xx: the adapter reads it. */
export interface HttpReply {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

/** The longest wait honoured from a Retry-After; a service asking for more is asked again after this. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Retry-After in either form (delta seconds or an HTTP date), as milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/** A temporary refusal: retried later, after the service's Retry-After when it gave one. */
export const isTransientStatus = (status: number) => status === 429 || status >= 500;

const decoder = new TextDecoder();

/** The body as JSON; undefined when empty or not JSON (the adapter decides what that means). */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

export const bodyText = (bytes: Uint8Array, max = 200) => decoder.decode(bytes.slice(0, max * 4)).slice(0, max);

/**
 * The one HTTP transport every adapter uses: base URL and query, a timeout over the whole call, a trace id,
 * one redacted log line per call (with the trace id), and one classification of what went wrong. No answer, 429 and 5xx throw
 * ProviderUnavailableError (retried by the outbox, no sooner than the service's Retry-After); every other
 * answer is handed back for the adapter to read with its own error forms.
 */
export function createTransport(options: TransportOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 15_000;

  function report(call: CallInfo, url: URL, failure?: unknown) {
    options.onCall?.(call);
    if (options.log) {
      logServiceCall(options.log, { method: call.method, url, status: call.status, durationMs: call.ms, traceId: call.traceId, retryAfterMs: call.retryAfterMs, error: failure });
    }
  }

  async function send(request: HttpRequest): Promise<HttpReply> {
    const { method, path, query } = request;
    const url = new URL(baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const traceId = randomUUID();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const started = Date.now();
    let reply: HttpReply;
    try {
      const res = await doFetch(url.toString(), { method, headers: { ...request.headers, 'X-Request-Id': traceId }, body: request.body, signal: controller.signal });
      reply = { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
    } catch (error) {
      const timedOut = controller.signal.aborted;
      report({ traceId, method, path, failure: timedOut ? 'timeout' : 'network', ms: Date.now() - started }, url, timedOut ? `timeout after ${timeoutMs} ms` : error);
      if (timedOut) throw new ProviderUnavailableError(said('provider.timeout', { service: options.service, method, path, ms: timeoutMs }), { noAnswer: 'timeout' });
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new ProviderUnavailableError(said('provider.unreachable', { service: options.service, method, path, reason: networkReason(reason) }), { noAnswer: 'network' });
    } finally {
      clearTimeout(timer);
    }
    const retryAfterMs = isTransientStatus(reply.status) ? parseRetryAfter(reply.headers.get('retry-after'), clock.now()) : undefined;
    report({ traceId, method, path, status: reply.status, ms: Date.now() - started, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, url);
    if (isTransientStatus(reply.status) && !(reply.status >= 500 && request.readsOwn5xx?.(reply.status, reply.bytes))) {
      const answered = { service: options.service, status: reply.status, method, path };
      const answer = retryAfterMs !== undefined ? said('provider.httpStatusRetry', { ...answered, seconds: Math.ceil(retryAfterMs / 1000) }) : said('provider.httpStatus', answered);
      throw new ProviderUnavailableError(answer, { retryAfterMs, httpStatus: reply.status });
    }
    return reply;
  }

  return { baseUrl, send };
}

export type Transport = ReturnType<typeof createTransport>;
