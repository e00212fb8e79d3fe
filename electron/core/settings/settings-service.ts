import { existsSync } from 'node:fs';
import { said } from '../../../shared/messages';
import type { z } from 'zod';
import {
  companyDetailsSchema, preferencesSchema, type CompanyDetails, type Preferences, type SenderProfile, type Settings, type SettingsUpdate,
  type senderProfileCreateSchema, type senderProfileUpdateSchema,
} from '../../../shared/schemas/settings';
import { formatTimestamp } from '../../../shared/time';
import type { MessageLanguage } from '../../../shared/messages';
import { backupsDir, pendingRestoreFile } from '../backup/backup-paths';
import type { Clock } from '../clock';
import { defaultCompanyName, newApiToken, type CallContext } from '../companies/company-service';
import { notFound } from '../errors';
import type { AppEvent, EventBus } from '../events';
import type { Logger } from '../logger';
import type { AccountsStore, StoredSenderProfile } from '../store/accounts/accounts-store';
import { readAppSetting } from './app-setting';

export interface SettingsServiceDeps {
  accounts: AccountsStore;
  clock: Clock;
  events: EventBus;
  log: Logger;
  dataDir: string;
}

const preferencesKey = 'preferences';

const profileView = (p: StoredSenderProfile): SenderProfile => ({
  id: p.id,
  name: p.name,
  sender: p.sender,
  isDefault: p.isDefault,
  created: formatTimestamp(p.createdAt),
  updated: formatTimestamp(p.updatedAt),
});

/**
 * Settings: the company's details and sender profiles (per company), the app's preferences (one set for
 * the whole app: there is one scheduler and one local API), and the API token. Publishes `settings.changed`
 * (the scheduler follows the refresh interval from it).
 */
export function createSettingsService({ accounts, clock, events, log, dataDir }: SettingsServiceDeps) {
  // Read on every HTTP request (the local API switch): kept in memory, this service is the only writer.
  let cached: Preferences | null = null;

  async function preferences(): Promise<Preferences> {
    cached ??= await readAppSetting(accounts, log, preferencesKey, preferencesSchema);
    return cached;
  }

  async function companyDetails(ctx: CallContext): Promise<CompanyDetails> {
    const company = await knownCompany(ctx);
    const stored = (await accounts.companyDetails(ctx.companyId)) ?? {};
    const parsed = companyDetailsSchema.safeParse({ ...stored, name: company.name });
    return parsed.success ? parsed.data : companyDetailsSchema.parse({ name: company.name || defaultCompanyName });
  }

  async function knownCompany(ctx: CallContext) {
    const company = await accounts.company(ctx.companyId);
    if (!company) throw new Error(`Company ${ctx.companyId} does not exist`);
    return company;
  }

  const profiles = (ctx: CallContext) => accounts.senderProfiles(ctx.companyId);

  async function findProfile(ctx: CallContext, id: number) {
    const profile = await accounts.senderProfile(ctx.companyId, id);
    if (!profile) throw notFound(said('notFound.senderProfile', { id }));
    return profile;
  }

  type SettingsChange = Extract<AppEvent, { type: 'settings.changed' }>['what'];
  /** Shop-wide preferences belong to the shop's own company: its windows hear of them, API clients' do not. */
  const changed = async (ctx: CallContext | null, what: SettingsChange) => {
    const companyId = ctx?.companyId ?? (await accounts.desktopCompany())?.id;
    if (companyId !== undefined) events.publish({ type: 'settings.changed', companyId, what });
  };

  const service = {
    preferences,

    /**
     * The language the app writes files in (the import's errors file): the preference, or for "as the
     * system" the system's own, as the window decides it (Russian when the system speaks Russian).
     */
    async language(): Promise<MessageLanguage> {
      const chosen = (await preferences()).language;
      if (chosen !== 'system') return chosen;
      return Intl.DateTimeFormat().resolvedOptions().locale.toLowerCase().startsWith('ru') ? 'ru' : 'en';
    },

    /** Whether other programs may use the local interface (the HTTP server asks on every /v1 call). */
    async localApiEnabled(): Promise<boolean> {
      return (await preferences()).localApiEnabled;
    },

    async get(ctx: CallContext): Promise<Settings> {
      const [company, prefs, rows, account] = await Promise.all([companyDetails(ctx), preferences(), profiles(ctx), knownCompany(ctx)]);
      const pending = pendingRestoreFile(dataDir);
      return {
        company,
        preferences: prefs,
        senderProfiles: rows.map(profileView),
        defaultSenderProfileId: rows.find((p) => p.isDefault)?.id ?? null,
        apiToken: account.apiToken,
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
        await accounts.saveCompanyDetails(ctx.companyId, { name, details: { ...currentRest, ...rest }, at: now });
        changed(ctx, 'company');
      }
      if (input.preferences) {
        const next = preferencesSchema.parse({ ...(await preferences()), ...stripUndefined(input.preferences) });
        await accounts.saveAppSetting(preferencesKey, next, now);
        cached = next;
        await changed(null, 'preferences');
      }
      return service.get(ctx);
    },

    /** A new API token for the company; the old one no longer opens anything (tokens are looked up per request). */
    async regenerateToken(ctx: CallContext): Promise<{ apiToken: string }> {
      const apiToken = newApiToken();
      await accounts.setApiToken(ctx.companyId, apiToken);
      changed(ctx, 'apiToken');
      return { apiToken };
    },

    async listProfiles(ctx: CallContext): Promise<SenderProfile[]> {
      return (await profiles(ctx)).map(profileView);
    },

    async createProfile(ctx: CallContext, input: z.output<typeof senderProfileCreateSchema>): Promise<SenderProfile> {
      const now = clock.now();
      const id = await accounts.createSenderProfile(ctx.companyId, { name: input.name, sender: input.sender, isDefault: input.isDefault, at: now });
      changed(ctx, 'senderProfiles');
      return profileView(await findProfile(ctx, id));
    },

    async updateProfile(ctx: CallContext, input: z.output<typeof senderProfileUpdateSchema>): Promise<SenderProfile> {
      const now = clock.now();
      await findProfile(ctx, input.id);
      await accounts.updateSenderProfile(ctx.companyId, input.id, { name: input.name, sender: input.sender, isDefault: input.isDefault, at: now });
      changed(ctx, 'senderProfiles');
      return profileView(await findProfile(ctx, input.id));
    },

    async deleteProfile(ctx: CallContext, id: number): Promise<{ id: number; deleted: string }> {
      await findProfile(ctx, id);
      await accounts.deleteSenderProfile(ctx.companyId, id);
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
