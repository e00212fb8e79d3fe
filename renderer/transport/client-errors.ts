import type { ErrorBody } from '../../shared/errors';
import type { Result } from '../../shared/result';

/**
 * Codes for failures that happen before the core answers. They are not six-digit interface codes on
 * purpose: they never come from the core, and the UI translates them like any other code.
 */
export const ClientErrorCode = {
  offline: 'client.offline',
  timeout: 'client.timeout',
  badResponse: 'client.badResponse',
  bridge: 'client.bridge',
} as const;
export type ClientErrorCodeValue = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** A failed Result for a transport-level problem. */
export const clientFailure = (code: ClientErrorCodeValue, message: string, description?: string): { ok: false; error: ErrorBody } => ({
  ok: false,
  error: description === undefined ? { code, message } : { code, message, description },
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isErrorBody(v: unknown): v is ErrorBody {
  if (!isRecord(v) || typeof v.code !== 'string' || typeof v.message !== 'string') return false;
  if (v.errors === undefined) return true;
  return Array.isArray(v.errors) && v.errors.every((e) => isRecord(e) && typeof e.field === 'string' && typeof e.message === 'string');
}

/**
 * Checks the envelope of whatever came over the wire. The value itself is trusted: it was produced
 * by the same contract on the other side.
 */
export function asResult<T>(raw: unknown): Result<T> | undefined {
  if (!isRecord(raw) || typeof raw.ok !== 'boolean') return undefined;
  if (raw.ok) return 'value' in raw ? (raw as { ok: true; value: T }) : undefined;
  return isErrorBody(raw.error) ? { ok: false, error: raw.error } : undefined;
}

/** An interface error body sent without the Result envelope (e.g. a 401 from a route guard). */
export const asBareError = (raw: unknown): ErrorBody | undefined => (isErrorBody(raw) ? raw : undefined);
