import type { z } from 'zod';
import type { Logger } from '../logger';
import type { Db } from '../store/database';

/**
 * One app-wide setting kept as JSON under its key in app_settings. A missing, unreadable or no longer valid
 * value gives the schema's defaults (and a warning), so an old or damaged row never stops the app.
 */
export async function readAppSetting<S extends z.ZodType>(db: Db, log: Logger, key: string, schema: S): Promise<z.output<S>> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
  let stored: unknown = {};
  try {
    stored = row ? JSON.parse(row.value) : {};
  } catch {
    stored = {};
  }
  const parsed = schema.safeParse(stored);
  if (!parsed.success) log.warn(`the stored ${key} setting is not valid; the defaults apply`);
  return parsed.success ? parsed.data : schema.parse({});
}

/** Stores an app-wide setting (the caller has checked it). */
export async function writeAppSetting(db: Db, key: string, value: unknown, now: number): Promise<void> {
  const text = JSON.stringify(value);
  await db
    .insertInto('app_settings')
    .values({ key, value: text, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: now }))
    .execute();
}
