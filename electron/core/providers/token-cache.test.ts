import { manualClock } from '../clock';
import { createTokenCache, type IssuedToken } from './token-cache';

/** A sign-in that issues tok-1, tok-2, … living `lifetimeMs`, resolved when the test says (or at once). */
function issuer(clock: { now(): number }, lifetimeMs: number) {
  let n = 0;
  const waiting: (() => void)[] = [];
  let held = false;
  const issue = async (): Promise<IssuedToken> => {
    if (held) await new Promise<void>((resolve) => waiting.push(resolve));
    n++;
    return { value: `tok-${n}`, expiresAt: clock.now() + lifetimeMs };
  };
  return {
    issue,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      waiting.splice(0).forEach((go) => go());
    },
  };
}

describe('token cache', () => {
  it('keeps a token until renewBeforeMs before it expires, then signs in again', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 3_600_000).issue });
    await expect(cache.current()).resolves.toBe('tok-1');
    clock.advance(3_600_000 - 60_001);
    await expect(cache.current()).resolves.toBe('tok-1');
    clock.advance(1);
    await expect(cache.current()).resolves.toBe('tok-2');
    expect(cache.issued()).toBe(2);
  });

  it('renews a short-lived token at half its life, not after it expired', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 30_000).issue });
    await cache.current();
    clock.advance(14_999);
    await expect(cache.current()).resolves.toBe('tok-1');
    clock.advance(1);
    await expect(cache.current()).resolves.toBe('tok-2');
  });

  it('concurrent callers share one sign-in', async () => {
    const clock = manualClock();
    const source = issuer(clock, 3_600_000);
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: source.issue });
    source.hold();
    const waiting = [cache.current(), cache.current(), cache.current()];
    source.release();
    await expect(Promise.all(waiting)).resolves.toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(cache.issued()).toBe(1);
  });

  it('a refused token is renewed once and the call repeated with the new one', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 3_600_000).issue });
    const sent: string[] = [];
    const result = await cache.send(
      async (token) => {
        sent.push(token);
        return token === 'tok-1' ? 401 : 200;
      },
      (status) => status === 401,
    );
    expect(result).toEqual({ reply: 200, refusedAgain: false });
    expect(sent).toEqual(['tok-1', 'tok-2']);
    await expect(cache.current()).resolves.toBe('tok-2');
  });

  it('a fresh token refused too is told to the caller, after exactly one renewal', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 3_600_000).issue });
    const sent: string[] = [];
    const result = await cache.send(
      async (token) => {
        sent.push(token);
        return 401;
      },
      (status) => status === 401,
    );
    expect(result).toEqual({ reply: 401, refusedAgain: true });
    expect(sent).toEqual(['tok-1', 'tok-2']);
    expect(cache.issued()).toBe(2);
  });

  it('a refusal of an old token keeps the newer one another caller already got', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 3_600_000).issue });
    const sent: string[] = [];
    const result = await cache.send(
      async (token) => {
        sent.push(token);
        if (token === 'tok-1') {
          // meanwhile another call renewed the token
          await cache.renew();
          return 401;
        }
        return 200;
      },
      (status) => status === 401,
    );
    expect(result.reply).toBe(200);
    expect(sent).toEqual(['tok-1', 'tok-2']);
    expect(cache.issued()).toBe(2);
  });

  it('a failed sign-in reaches the caller and the next call tries again', async () => {
    const clock = manualClock();
    let fail = true;
    const cache = createTokenCache({
      clock,
      renewBeforeMs: 60_000,
      issue: async () => {
        if (fail) throw new Error('credentials refused');
        return { value: 'ok', expiresAt: clock.now() + 600_000 };
      },
    });
    await expect(cache.current()).rejects.toThrow('credentials refused');
    fail = false;
    await expect(cache.current()).resolves.toBe('ok');
    expect(cache.issued()).toBe(1);
  });

  it('renew signs in even with a valid token kept and answers the new lifetime in seconds', async () => {
    const clock = manualClock();
    const cache = createTokenCache({ clock, renewBeforeMs: 60_000, issue: issuer(clock, 3_599_600).issue });
    await cache.current();
    await expect(cache.renew()).resolves.toEqual({ expiresInSeconds: 3600 });
    await expect(cache.current()).resolves.toBe('tok-2');
  });
});
