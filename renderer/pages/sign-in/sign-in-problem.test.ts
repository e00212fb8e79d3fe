import { ErrorCode } from '../../../shared/errors';
import { ClientErrorCode } from '../../transport/client-errors';
import { messageText, type MessageRef } from '../../../shared/messages';
import { tooManyAttempts } from '../../../electron/core/errors';
import { signInProblem } from './sign-in-problem';

describe('why signing in did not work', () => {
  it('a wrong name or password is one answer for both (the screen never says which)', () => {
    expect(signInProblem({ code: ErrorCode.unauthorized, message: 'Unauthorized', description: 'Wrong name or password' })).toEqual({ kind: 'wrong' });
  });

  it('too many attempts says how many minutes to wait, by the core’s key, with the word for that count', () => {
    const body = tooManyAttempts(4 * 60 + 1).body;
    expect(body.description).toBe('Too many failed sign-ins; try again in 5 min');
    const problem = signInProblem(body);
    expect(problem).toEqual({ kind: 'too-many', wait: { key: 'auth.tooManyAttempts', params: { minutes: 5 } } });
    const wait = (seconds: number, language: 'ru' | 'en') => messageText((signInProblem(tooManyAttempts(seconds).body) as { wait: MessageRef }).wait, language);
    expect(wait(300, 'ru')).toBe('Слишком много неудачных попыток. Попробуйте снова через 5 минут.');
    expect(wait(60, 'ru')).toBe('Слишком много неудачных попыток. Попробуйте снова через 1 минуту.');
    expect(wait(120, 'ru')).toBe('Слишком много неудачных попыток. Попробуйте снова через 2 минуты.');
    expect(wait(21 * 60, 'ru')).toContain('через 21 минуту.');
    expect(wait(60, 'en')).toBe('Too many failed attempts. Try again in 1 minute.');
    expect(signInProblem({ code: ErrorCode.tooManyAttempts, message: 'Too many attempts' })).toEqual({ kind: 'too-many', wait: undefined });
  });

  it('an unreachable shop computer is not a wrong password', () => {
    expect(signInProblem({ code: ClientErrorCode.offline, message: 'auth.signIn: unreachable' })).toEqual({ kind: 'offline' });
    expect(signInProblem({ code: ClientErrorCode.timeout, message: 'no answer' })).toEqual({ kind: 'offline' });
  });

  it('anything else is kept whole, to be said by its key or code in the user\'s language', () => {
    const internal = { code: ErrorCode.internal, message: 'Internal error', description: 'Something went wrong' };
    expect(signInProblem(internal)).toEqual({ kind: 'other', error: internal });
  });
});
