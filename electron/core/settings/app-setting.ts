import type { z } from 'zod';
import type { Logger } from '../logger';
import type { AccountsStore } from '../store/accounts/accounts-store';

/**
 * One app-wide setting kept as JSON under its key. A missing, unreadable or no longer valid value gives the
 * schema's defaults (and a warning), so an old or damaged row never stops the app.
 */
export async function readAppSetting<S extends z.ZodType>(accounts: AccountsStore, log: Logger, key: string, schema: S): Promise<z.output<S>> {
  const parsed = schema.safeParse((await accounts.appSetting(key)) ?? {});
  if (!parsed.success) log.warn(`the stored ${key} setting is not valid; the defaults apply`);
  return parsed.success ? parsed.data : schema.parse({});
}
