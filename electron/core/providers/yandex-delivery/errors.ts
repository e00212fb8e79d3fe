import { CredentialsRefusedError, type Telling } from '../provider';
import { yandexErrorSchema, type YandexError } from './wire';

/** The platform answered and refused, in its one error form `{ code, message }`. */
export class YandexApiError extends Error {
  constructor(
    readonly error: YandexError,
    readonly httpStatus: number,
  ) {
    super(error.message ? `${error.message}${error.code ? ` (${error.code})` : ''}` : `Yandex Delivery answered HTTP ${httpStatus}`);
    this.name = 'YandexApiError';
  }

  get code(): string {
    return this.error.code;
  }

  get notFound(): boolean {
    return this.httpStatus === 404 || this.error.code === 'not_found';
  }
}

/**
 * The platform did not accept the account's token (it never expires by time, but a password change in the
 * account revokes it). Retried like an outage, so queued orders go out once the connection gets a new token;
 * "test connection" shows the reason.
 */
export class YandexAuthError extends CredentialsRefusedError {
  constructor(message: Telling) {
    super(message);
    this.name = 'YandexAuthError';
  }
}

/** `{ code, message }` in a body, or null when the body is not that form. */
export function extractYandexError(body: unknown): YandexError | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  if (!('message' in body) && !('code' in body)) return null;
  const parsed = yandexErrorSchema.safeParse(body);
  return parsed.success && (parsed.data.code || parsed.data.message) ? parsed.data : null;
}
