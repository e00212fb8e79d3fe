import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { AccountsStore } from '../store/accounts/accounts-store';

/** Who is calling: every query of orders takes this company id. */
export interface CallContext {
  companyId: number;
}

/** The token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export const tokenFrom = (header: string | undefined) => (header ?? '').trim().replace(/^Bearer\s+/i, '');

export const newApiToken = () => randomBytes(24).toString('base64url');

/** The shop's name until the owner gives one: the app is for Russian shops, so it starts in their words. */
export const defaultCompanyName = 'Мой магазин';

export function createCompanyService(accounts: AccountsStore, clock: Clock) {
  return {
    /** The company an API token belongs to, or undefined. */
    async byToken(token: string): Promise<CallContext | undefined> {
      if (!token) return undefined;
      const company = await accounts.companyByToken(token);
      return company ? { companyId: company.id } : undefined;
    },

    /** Creates a company with this API token unless one has it already (serve --token). */
    async ensureWithToken(token: string, name = 'API client'): Promise<CallContext> {
      const existing = await this.byToken(token);
      if (existing) return existing;
      const created = await accounts.createCompany({ name, apiToken: token, isDesktop: false, createdAt: clock.now() });
      return { companyId: created.id };
    },

    /** The shop's own company, used by the desktop window; created on first start with a fresh token. */
    async desktop(): Promise<CallContext & { apiToken: string; created: boolean }> {
      const existing = await accounts.desktopCompany();
      if (existing) return { companyId: existing.id, apiToken: existing.apiToken, created: false };
      const created = await accounts.createCompany({ name: defaultCompanyName, apiToken: newApiToken(), isDesktop: true, createdAt: clock.now() });
      return { companyId: created.id, apiToken: created.apiToken, created: true };
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
