import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../store/database';

/** Who is calling: every query of orders takes this company id. */
export interface CallContext {
  companyId: number;
}

/** The token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export const tokenFrom = (header: string | undefined) => (header ?? '').trim().replace(/^Bearer\s+/i, '');

export const newApiToken = () => randomBytes(24).toString('base64url');

export function createCompanyService(db: Db, clock: Clock) {
  return {
    /** The company an API token belongs to, or undefined. */
    async byToken(token: string): Promise<CallContext | undefined> {
      if (!token) return undefined;
      const row = await db.selectFrom('companies').select('id').where('api_token', '=', token).executeTakeFirst();
      return row ? { companyId: row.id } : undefined;
    },

    /** Creates a company with this API token unless one has it already (serve --token). */
    async ensureWithToken(token: string, name = 'API client'): Promise<CallContext> {
      const existing = await this.byToken(token);
      if (existing) return existing;
      const row = await db
        .insertInto('companies')
        .values({ name, api_token: token, is_desktop: 0, created_at: clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { companyId: row.id };
    },

    /** The shop's own company, used by the desktop window; created on first start with a fresh token. */
    async desktop(): Promise<CallContext & { apiToken: string; created: boolean }> {
      const row = await db.selectFrom('companies').select(['id', 'api_token']).where('is_desktop', '=', 1).executeTakeFirst();
      if (row) return { companyId: row.id, apiToken: row.api_token, created: false };
      const apiToken = newApiToken();
      const created = await db
        .insertInto('companies')
        .values({ name: 'My shop', api_token: apiToken, is_desktop: 1, created_at: clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { companyId: created.id, apiToken, created: true };
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
