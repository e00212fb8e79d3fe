import { ErrorCode, type ErrorBody } from '../../../shared/errors';
import { ClientErrorCode } from '../../transport/client-errors';

/** Why signing in did not work, as the sign-in screen explains it. */
export type SignInProblem =
  | { kind: 'missing' }
  | { kind: 'wrong' }
  /** minutes: when the core said how long to wait. */
  | { kind: 'too-many'; minutes: number | undefined }
  | { kind: 'offline' }
  | { kind: 'other'; reason: string };

/** The core's refusal (or a lost connection) as a problem the screen names in the user's language. */
export function signInProblem(error: ErrorBody): SignInProblem {
  if (error.code === ErrorCode.unauthorized) return { kind: 'wrong' };
  if (error.code === ErrorCode.tooManyAttempts) {
    const minutes = /(\d+)\s*min/.exec(error.description ?? '')?.[1];
    return { kind: 'too-many', minutes: minutes ? Number(minutes) : undefined };
  }
  if (error.code === ClientErrorCode.offline || error.code === ClientErrorCode.timeout) return { kind: 'offline' };
  if (error.code === ErrorCode.validation) return { kind: 'missing' };
  return { kind: 'other', reason: error.description ?? error.message };
}
