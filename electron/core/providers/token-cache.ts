import type { Clock } from '../clock';

/** A bearer token a service issued, and when it stops being valid (epoch ms). */
export interface IssuedToken {
  value: string;
  expiresAt: number;
}

export interface TokenCacheOptions {
  clock: Clock;
  /** A token is renewed this long before it expires, at most half its lifetime. */
  renewBeforeMs: number;
  /** Signs in and answers the new token; its errors reach the caller that needed the token. */
  issue: () => Promise<IssuedToken>;
}

/**
 * One service account's bearer token (OAuth, JWT): kept until shortly before it expires, one sign-in shared by
 * concurrent callers, and one renewal when the service refuses the token early (expired, revoked).
 */
export function createTokenCache(options: TokenCacheOptions) {
  const { clock } = options;
  let token: (IssuedToken & { renewAt: number }) | null = null;
  let pending: Promise<string> | null = null;
  let issued = 0;

  async function signIn(): Promise<string> {
    const fresh = await options.issue();
    const now = clock.now();
    const lifetime = Math.max(0, fresh.expiresAt - now);
    token = { ...fresh, renewAt: fresh.expiresAt - Math.min(options.renewBeforeMs, lifetime / 2) };
    issued++;
    return fresh.value;
  }

  /** A valid token: the kept one, or a new one. */
  function current(): Promise<string> {
    if (token && clock.now() < token.renewAt) return Promise.resolve(token.value);
    pending ??= signIn().finally(() => {
      pending = null;
    });
    return pending;
  }

  return {
    current,

    /**
     * Makes a call with the token; when `refused` says the service turned the token down, drops it (unless another
     * caller already renewed it), gets a new one and makes the call once more. Answers the last reply and whether
     * that one was refused too (the caller's own error then).
     */
    async send<R>(attempt: (token: string) => Promise<R>, refused: (reply: R) => boolean): Promise<{ reply: R; refusedAgain: boolean }> {
      const first = await current();
      const reply = await attempt(first);
      if (!refused(reply)) return { reply, refusedAgain: false };
      if (token?.value === first) token = null;
      const again = await attempt(await current());
      return { reply: again, refusedAgain: refused(again) };
    },

    /** Signs in now, whatever is kept ("test connection"); the new token's lifetime in whole seconds. */
    async renew(): Promise<{ expiresInSeconds: number }> {
      token = null;
      await current();
      const expiresAt = (token as IssuedToken | null)?.expiresAt ?? clock.now();
      return { expiresInSeconds: Math.round((expiresAt - clock.now()) / 1000) };
    },

    /** How many tokens were issued to this cache (diagnostics, tests). */
    issued: () => issued,
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
