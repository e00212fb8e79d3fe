import { ErrorCode, type ErrorBody } from '../../../shared/errors';
import type { MessageRef } from '../../../shared/messages';
import { ClientErrorCode } from '../../transport/client-errors';

/** Why signing in did not work, as the sign-in screen explains it. */
export type SignInProblem =
  | { kind: 'missing' }
  | { kind: 'wrong' }
  /** wait: how long to wait, as the core said it (a message with the minutes as its count). */
  | { kind: 'too-many'; wait: MessageRef | undefined }
  | { kind: 'offline' }
  /** error: any other refusal, said by its key or code in the user's language (errorHint, errorTitle). */
  | { kind: 'other'; error: ErrorBody };

/** The core's refusal (or a lost connection) as a problem the screen names in the user's language. */
export function signInProblem(error: ErrorBody): SignInProblem {
  if (error.code === ErrorCode.unauthorized) return { kind: 'wrong' };
  if (error.code === ErrorCode.tooManyAttempts) {
    return { kind: 'too-many', wait: error.key ? { key: error.key, params: error.params } : undefined };
  }
  if (error.code === ClientErrorCode.offline || error.code === ClientErrorCode.timeout) return { kind: 'offline' };
  if (error.code === ErrorCode.validation) return { kind: 'missing' };
  return { kind: 'other', error };
}
