import { existsSync } from 'node:fs';
import type { z } from 'zod';
import {
  companyDetailsSchema, preferencesSchema, type CompanyDetails, type Preferences, type SenderProfile, type Settings, type SettingsUpdate,
  type senderProfileCreateSchema, type senderProfileUpdateSchema,
} from '../../../shared/schemas/settings';
import { formatTimestamp } from '../../../shared/time';
import { backupsDir, pendingRestoreFile } from '../backup/backup-paths';
import type { Clock } from '../clock';
import { newApiToken, type CallContext } from '../companies/company-service';
import { notFound } from '../errors';
import type { AppEvent, EventBus } from '../events';
import type { Logger } from '../logger';
import type { Db } from '../store/database';
import type { SenderProfilesTable } from '../store/schema';
import { readAppSetting, writeAppSetting } from './app-setting';
import type { Selectable } from 'kysely';

export interface SettingsServiceDeps {
  db: Db;
  clock: Clock;
  events: EventBus;
  log: Logger;
  dataDir: string;
}

const preferencesKey = 'preferences';

const profileView = (r: Selectable<SenderProfilesTable>): SenderProfile => ({
  id: r.id,
  name: r.name,
  sender: JSON.parse(r.sender),
  isDefault: r.is_default === 1,
  created: formatTimestamp(r.created_at),
  updated: formatTimestamp(r.updated_at),
});

/**
 * Settings: the company's details and sender profiles (per company), the app's preferences (one set for
 * the whole app: there is one scheduler and one local API), and the API token. Publishes `settings.changed`
 * (the scheduler follows the refresh interval from it).
 */
export function createSettingsService({ db, clock, events, log, dataDir }: SettingsServiceDeps) {
  // Read on every HTTP request (the local API switch): kept in memory, this service is the only writer.
  let cached: Preferences | null = null;

  async function preferences(): Promise<Preferences> {
    cached ??= await readAppSetting(db, log, preferencesKey, preferencesSchema);
    return cached;
  }

  async function companyDetails(ctx: CallContext): Promise<CompanyDetails> {
    const company = await db.selectFrom('companies').select('name').where('id', '=', ctx.companyId).executeTakeFirstOrThrow();
    const row = await db.selectFrom('company_settings').select('details').where('company_id', '=', ctx.companyId).executeTakeFirst();
    const stored = row ? (JSON.parse(row.details) as Record<string, unknown>) : {};
    const parsed = companyDetailsSchema.safeParse({ ...stored, name: company.name });
    return parsed.success ? parsed.data : companyDetailsSchema.parse({ name: company.name || 'My shop' });
  }

  const profiles = (ctx: CallContext) =>
    db.selectFrom('sender_profiles').selectAll().where('company_id', '=', ctx.companyId).orderBy('is_default', 'desc').orderBy('id').execute();

  async function findProfile(ctx: CallContext, id: number) {
    const row = await db.selectFrom('sender_profiles').selectAll().where('company_id', '=', ctx.companyId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`Sender profile ${id} was not found`);
    return row;
  }

  type SettingsChange = Extract<AppEvent, { type: 'settings.changed' }>['what'];
  /** Shop-wide preferences belong to the shop's own company: its windows hear of them, API clients' do not. */
  const changed = async (ctx: CallContext | null, what: SettingsChange) => {
    const companyId = ctx?.companyId ?? (await db.selectFrom('companies').select('id').where('is_desktop', '=', 1).executeTakeFirst())?.id;
    if (companyId !== undefined) events.publish({ type: 'settings.changed', companyId, what });
  };

  const service = {
    preferences,

    /** Whether other programs may use the local interface (the HTTP server asks on every /v1 call). */
    async localApiEnabled(): Promise<boolean> {
      return (await preferences()).localApiEnabled;
    },

    async get(ctx: CallContext): Promise<Settings> {
      const [company, prefs, rows, token] = await Promise.all([
        companyDetails(ctx),
        preferences(),
        profiles(ctx),
        db.selectFrom('companies').select('api_token').where('id', '=', ctx.companyId).executeTakeFirstOrThrow(),
      ]);
      const pending = pendingRestoreFile(dataDir);
      return {
        company,
        preferences: prefs,
        senderProfiles: rows.map(profileView),
        defaultSenderProfileId: rows.find((r) => r.is_default === 1)?.id ?? null,
        apiToken: token.api_token,
        dataDir,
        backupsDir: backupsDir(dataDir),
        pendingRestore: existsSync(pending) ? pending : null,
      };
    },

    async update(ctx: CallContext, input: SettingsUpdate): Promise<Settings> {
      const now = clock.now();
      if (input.company) {
        const { name, ...rest } = input.company;
        const current = await companyDetails(ctx);
        const { name: _name, ...currentRest } = current;
        const details = JSON.stringify({ ...currentRest, ...rest });
        await db.transaction().execute(async (trx) => {
          if (name !== undefined) await trx.updateTable('companies').set({ name }).where('id', '=', ctx.companyId).execute();
          await trx
            .insertInto('company_settings')
            .values({ company_id: ctx.companyId, details, updated_at: now })
            .onConflict((oc) => oc.column('company_id').doUpdateSet({ details, updated_at: now }))
            .execute();
        });
        changed(ctx, 'company');
      }
      if (input.preferences) {
        const next = preferencesSchema.parse({ ...(await preferences()), ...stripUndefined(input.preferences) });
        await writeAppSetting(db, preferencesKey, next, now);
        cached = next;
        await changed(null, 'preferences');
      }
      return service.get(ctx);
    },

    /** A new API token for the company; the old one no longer opens anything (tokens are looked up per request). */
    async regenerateToken(ctx: CallContext): Promise<{ apiToken: string }> {
      const apiToken = newApiToken();
      await db.updateTable('companies').set({ api_token: apiToken }).where('id', '=', ctx.companyId).execute();
      changed(ctx, 'apiToken');
      return { apiToken };
    },

    async listProfiles(ctx: CallContext): Promise<SenderProfile[]> {
      return (await profiles(ctx)).map(profileView);
    },

    async createProfile(ctx: CallContext, input: z.output<typeof senderProfileCreateSchema>): Promise<SenderProfile> {
      const now = clock.now();
      const id = await db.transaction().execute(async (trx) => {
        const hasDefault = await trx.selectFrom('sender_profiles').select('id').where('company_id', '=', ctx.companyId).where('is_default', '=', 1).executeTakeFirst();
        const makeDefault = !hasDefault || input.isDefault === true;
        if (makeDefault && hasDefault) await trx.updateTable('sender_profiles').set({ is_default: 0 }).where('id', '=', hasDefault.id).execute();
        const row = await trx
          .insertInto('sender_profiles')
          .values({ company_id: ctx.companyId, name: input.name, sender: JSON.stringify(input.sender), is_default: makeDefault ? 1 : 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      changed(ctx, 'senderProfiles');
      return profileView(await findProfile(ctx, id));
    },

    async updateProfile(ctx: CallContext, input: z.output<typeof senderProfileUpdateSchema>): Promise<SenderProfile> {
      const now = clock.now();
      await findProfile(ctx, input.id);
      await db.transaction().execute(async (trx) => {
        if (input.isDefault === true) {
          await trx.updateTable('sender_profiles').set({ is_default: 0 }).where('company_id', '=', ctx.companyId).where('id', '!=', input.id).execute();
        }
        await trx
          .updateTable('sender_profiles')
          .set({
            updated_at: now,
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.sender !== undefined ? { sender: JSON.stringify(input.sender) } : {}),
            ...(input.isDefault === true ? { is_default: 1 } : {}),
          })
          .where('id', '=', input.id)
          .execute();
      });
      changed(ctx, 'senderProfiles');
      return profileView(await findProfile(ctx, input.id));
    },

    async deleteProfile(ctx: CallContext, id: number): Promise<{ id: number; deleted: string }> {
      const row = await findProfile(ctx, id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sender_profiles').where('id', '=', id).execute();
        if (row.is_default === 1) {
          const oldest = await trx.selectFrom('sender_profiles').select('id').where('company_id', '=', ctx.companyId).orderBy('id').executeTakeFirst();
          if (oldest) await trx.updateTable('sender_profiles').set({ is_default: 1 }).where('id', '=', oldest.id).execute();
        }
      });
      changed(ctx, 'senderProfiles');
      return { id, deleted: formatTimestamp(clock.now()) };
    },
  };
  return service;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type SettingsService = ReturnType<typeof createSettingsService>;
