import type { LogFields, Logger } from '../logger';
import { redactUrl } from './redact';

/** One request to a delivery service, as the shared carrier transport saw it. */
export interface ServiceCall {
  method: string;
  url: string | URL;
  /** HTTP status of the answer; absent when none came (timeout, refused connection). */
  status?: number;
  durationMs: number;
  /** Which try this was, when the transport retries. */
  attempt?: number;
  /** The id sent with the request (X-Request-Id), to find the same call in the service's logs. */
  traceId?: string;
  /** How long the service asked us to wait (Retry-After), in ms. */
  retryAfterMs?: number;
  /** Why no usable answer came (network error, timeout). */
  error?: unknown;
  /** What else the line should say about the call (a webhook's id and delivery), beside `call`. */
  about?: LogFields;
}

/**
 * Logs one service call on `log` (a child carrying the service, and the company or order when known):
 * method, address without secrets, status, duration. Failures and 4xx/5xx answers are warnings.
 */
export function logServiceCall(log: Logger, call: ServiceCall): void {
  const url = redactUrl(call.url);
  const fields = {
    ...call.about,
    call: {
      method: call.method.toUpperCase(),
      url,
      status: call.status ?? null,
      durationMs: Math.round(call.durationMs),
      ...(call.attempt === undefined ? {} : { attempt: call.attempt }),
      ...(call.traceId === undefined ? {} : { traceId: call.traceId }),
      ...(call.retryAfterMs === undefined ? {} : { retryAfterMs: call.retryAfterMs }),
      ...(call.error === undefined ? {} : { error: call.error instanceof Error ? call.error.message : String(call.error) }),
    },
  };
  const outcome = call.status ?? (call.error === undefined ? 'done' : 'no answer');
  const summary = `${fields.call.method} ${url} → ${outcome} in ${fields.call.durationMs} ms`;
  if (call.error !== undefined || (call.status ?? 0) >= 400) log.warn(`service call: ${summary}`, fields);
  else log.info(`service call: ${summary}`, fields);
}

/**
 * Runs one call to a service that is not reached over HTTP (the built-in sandbox services keep their books in the
 * database) and logs it as logServiceCall does an HTTP one: the operation as the method, the service's address,
 * "done" or the error, the duration.
 */
export async function loggedCall<T>(log: Logger, call: { method: string; url: string }, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    logServiceCall(log, { ...call, durationMs: performance.now() - started });
    return result;
  } catch (error) {
    logServiceCall(log, { ...call, durationMs: performance.now() - started, error });
    throw error;
  }
}
