import { CredentialsRefusedError, type Telling } from '../provider';
import { cdekErrorSchema, type CdekErrorEntry } from './wire';

/** Where CDEK put its errors: top-level `errors[]`, `requests[].errors` of an INVALID request, or OAuth's `error`. */
export type CdekErrorForm = 'errors' | 'requests' | 'oauth';

/** CDEK answered and refused: the codes decide what it means, not the HTTP status. */
export class CdekApiError extends Error {
  constructor(
    readonly errors: CdekErrorEntry[],
    readonly form: CdekErrorForm,
    readonly httpStatus: number,
  ) {
    super(errors.map((e) => (e.message ? `${e.code}: ${e.message}` : e.code)).join('; ') || `CDEK answered HTTP ${httpStatus}`);
    this.name = 'CdekApiError';
  }

  has(...codes: string[]): boolean {
    return this.errors.some((e) => codes.includes(e.code));
  }

  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/**
 * CDEK did not accept the account's credentials. Retried like an outage (queued orders go out once the
 * connection is fixed) but carries the reason so "test connection" can show it.
 */
export class CdekAuthError extends CredentialsRefusedError {
  constructor(
    message: Telling,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CdekAuthError';
  }
}

/** Codes that mean "no such order" wherever they come from. */
export const notFoundCodes = ['v2_entity_not_found', 'v2_order_not_found'];

/** The code of an expired bearer token (an HTTP 401 without it is treated the same way). */
export const tokenCodes = ['v2_token_expired'];

const entries = (value: unknown): CdekErrorEntry[] =>
  Array.isArray(value) ? value.flatMap((e) => {
    const parsed = cdekErrorSchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  }) : [];

/** Finds errors in a CDEK body in any of its three forms; null when the body carries none. */
export function extractCdekErrors(body: unknown): { form: CdekErrorForm; errors: CdekErrorEntry[] } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'string') {
    const description = typeof b.error_description === 'string' ? b.error_description : '';
    return { form: 'oauth', errors: [{ code: b.error, message: description }] };
  }
  const top = entries(b.errors);
  if (top.length) return { form: 'errors', errors: top };
  if (Array.isArray(b.requests)) {
    const invalid = b.requests.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && (r as { state?: unknown }).state === 'INVALID');
    const found = invalid.flatMap((r) => entries(r.errors));
    if (invalid.length) return { form: 'requests', errors: found.length ? found : [{ code: 'INVALID', message: 'CDEK marked the request INVALID' }] };
  }
  return null;
}
