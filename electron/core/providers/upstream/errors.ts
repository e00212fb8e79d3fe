import { CredentialsRefusedError, type Telling } from '../provider';
import type { UpstreamErrorBody } from './wire';

/** The interface's codes the adapter acts on (spec "Errors", wire conventions "Error codes seen"). */
export const upstreamCodes = {
  validation: '040002',
  notFound: '040016',
  orderNotFound: '040080',
  alreadyCanceled: '040081',
  unauthorized: '040101',
  cannotCancel: '040306',
} as const;

/**
 * The upstream answered with the interface's error body (a six-digit code) and a 4xx status: it
 * understood the call and refused it. What that means is decided by the caller (code and status).
 */
export class UpstreamApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: UpstreamErrorBody,
  ) {
    super(`${body.code} ${body.message}${body.description ? `: ${body.description}` : ''}`);
    this.name = 'UpstreamApiError';
  }

  get code(): string {
    return this.body.code;
  }

  /** The upstream's own words: its description, else its message. */
  get description(): string {
    return this.body.description || this.body.message || `error ${this.body.code}`;
  }

  get fieldErrors(): { field: string; message: string }[] {
    return (this.body.errors ?? []).filter((e) => e.field);
  }

  is(...codes: string[]): boolean {
    return codes.includes(this.body.code);
  }
}

/**
 * The upstream does not accept the connection's token (401 / 040101). Retried like an outage: orders wait
 * and go out once the token is fixed; "test connection" shows the reason.
 */
export class UpstreamAuthError extends CredentialsRefusedError {
  constructor(message: Telling) {
    super(message);
    this.name = 'UpstreamAuthError';
  }
}
