import { ErrorCode } from '../../../shared/errors';
import { ClientErrorCode } from '../../transport/client-errors';
import { signInProblem } from './sign-in-problem';

describe('why signing in did not work', () => {
  it('a wrong name or password is one answer for both (the screen never says which)', () => {
    expect(signInProblem({ code: ErrorCode.unauthorized, message: 'Unauthorized', description: 'Wrong name or password' })).toEqual({ kind: 'wrong' });
  });

  it('too many attempts says how many minutes to wait when the core says it', () => {
    expect(signInProblem({ code: ErrorCode.tooManyAttempts, message: 'Too many attempts', description: 'Too many failed sign-ins; try again in 12 min' })).toEqual({ kind: 'too-many', minutes: 12 });
    expect(signInProblem({ code: ErrorCode.tooManyAttempts, message: 'Too many attempts' })).toEqual({ kind: 'too-many', minutes: undefined });
  });

  it('an unreachable shop computer is not a wrong password', () => {
    expect(signInProblem({ code: ClientErrorCode.offline, message: 'auth.signIn: unreachable' })).toEqual({ kind: 'offline' });
    expect(signInProblem({ code: ClientErrorCode.timeout, message: 'no answer' })).toEqual({ kind: 'offline' });
  });

  it('anything else is shown with the core\'s own words', () => {
    expect(signInProblem({ code: ErrorCode.internal, message: 'Internal error', description: 'Something went wrong' })).toEqual({ kind: 'other', reason: 'Something went wrong' });
  });
});
