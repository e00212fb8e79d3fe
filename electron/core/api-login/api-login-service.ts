import { decoyHash, hashPassword, verifyPassword } from '../auth/passwords';
import { createAttemptLimiter } from '../auth/attempt-limiter';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { tooManyAttempts, unauthorized, validationError } from '../errors';
import type { AccountsStore } from '../store/accounts/accounts-store';

/** Failed logins allowed per address and per login within a minute before POST /login answers 429. */
export const apiLoginLimits = { perKey: 10, windowMs: 60_000 };

/**
 * The API login of each company: the owner sets a login and password (Settings → Local API, or
 * `serve --login`), and `POST /login` trades them for the company's API token, as the aggregator's SDK
 * does with its default adapter. Failed attempts are limited per address and per login.
 */
export function createApiLoginService({ accounts, clock }: { accounts: AccountsStore; clock: Clock }) {
  const limiter = createAttemptLimiter({ max: apiLoginLimits.perKey, windowMs: apiLoginLimits.windowMs, now: () => clock.now() });

  return {
    /** The company's login, or null when none is set (the password is never given back). */
    async get(ctx: CallContext): Promise<{ login: string | null }> {
      return { login: await accounts.apiLoginOf(ctx.companyId) };
    },

    /** Sets (or replaces) the company's login and password; a login another company uses is refused. */
    async set(ctx: CallContext, input: { login: string; password: string }): Promise<{ login: string }> {
      const saved = await accounts.saveApiLogin(ctx.companyId, { login: input.login, passwordHash: await hashPassword(input.password), at: clock.now() });
      if (saved === 'taken') throw validationError([{ field: 'login', message: 'is used by another company' }]);
      return { login: input.login };
    },

    /** Removes the company's login: POST /login no longer works for it (its token still does). */
    async clear(ctx: CallContext): Promise<{ login: null }> {
      await accounts.clearApiLogin(ctx.companyId);
      return { login: null };
    },

    /** POST /login: the company's token for a right login and password; 401 otherwise, 429 after too many failures. */
    async login(input: { login: string; password: string }, from: string): Promise<{ accessToken: string }> {
      const keys = [`address:${from}`, `login:${input.login.toLowerCase()}`];
      const wait = Math.max(...keys.map((key) => limiter.retryAfter(key)));
      if (wait > 0) throw tooManyAttempts(wait / 1000);
      const row = await accounts.apiLogin(input.login);
      const ok = row ? await verifyPassword(input.password, row.passwordHash) : (await verifyPassword(input.password, await decoyHash()), false);
      if (!row || !ok) {
        for (const key of keys) limiter.fail(key);
        throw unauthorized();
      }
      // The login's failures are forgiven, not the address's: one right password does not unlock guessing others.
      limiter.succeed(keys[1]);
      return { accessToken: row.apiToken };
    },
  };
}

export type ApiLoginService = ReturnType<typeof createApiLoginService>;
