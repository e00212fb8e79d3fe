import type { z } from 'zod';
import { connectionCreateSchema, connectionUpdateSchema, type Connection, type ConnectionKindInfo } from '../../../shared/contract/connections';
import { apiLoginSettingsSchema } from '../../../shared/contract/api-login';
import { authCommands } from '../../../shared/contract/auth';
import { lanSettingsSchema, type LanSettings } from '../../../shared/contract/lan';
import type { ErrorBody } from '../../../shared/errors';
import { addressSchema } from '../../../shared/schemas/order';
import { companyDetailsSchema, preferencesSchema, type CompanyDetails, type SenderProfile } from '../../../shared/schemas/settings';
import { said } from '../../../shared/messages';
import { issueMessage } from '../../../shared/messages/issues';
import type { Said } from '../../i18n/error-messages';
import { issuesToFieldErrors, serverFieldErrors, type FieldErrors } from '../../order-form/zod-issues';

// Pure logic of the settings forms: form values → command input, checked with the core's own schemas, and
// the schemas' messages in the user's language. The components only hold the values and show the errors.

export type FormCheck<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function check<S extends z.ZodType>(schema: S, input: unknown, aliases: Record<string, string> = {}): FormCheck<z.output<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: issuesToFieldErrors(parsed.error.issues, input, aliases) };
}

/** The core's refusal as field errors of a form (empty when it names no field). */
export const refusalErrors = (error: ErrorBody, aliases: Record<string, string> = {}): FieldErrors => serverFieldErrors(error.errors, aliases);

/** Company details as typed: every field a string, empty meaning "not given". */
export type CompanyForm = Record<keyof CompanyDetails, string>;

export const companyFields = ['name', 'inn', 'kpp', 'ogrn', 'legalAddress', 'phone', 'email', 'contactName'] as const satisfies readonly (keyof CompanyDetails)[];

/** The stored details as form values. */
export function companyForm(details: Partial<CompanyDetails>): CompanyForm {
  return Object.fromEntries(companyFields.map((k) => [k, details[k] ?? ''])) as CompanyForm;
}

/** Checks the company form with the core's rules; the value is what settings.update takes. */
export function checkCompany(form: CompanyForm): FormCheck<CompanyDetails> {
  return check(companyDetailsSchema, form);
}

/** A sender profile as typed (the address fields a small shop needs; the rest of the stored sender is kept). */
export interface SenderForm {
  profileName: string;
  contactName: string;
  phone: string;
  email: string;
  companyName: string;
  countryCode: string;
  city: string;
  addressString: string;
  index: string;
  isDefault: boolean;
}

const senderKeys = ['contactName', 'phone', 'email', 'companyName', 'countryCode', 'city', 'addressString', 'index'] as const;

/** A new profile's form, pre-filled from the company details; the first profile is the default anyway. */
export function newSenderForm(company: CompanyDetails | undefined, isFirst: boolean): SenderForm {
  return {
    profileName: '',
    contactName: company?.contactName ?? '',
    phone: company?.phone ?? '',
    email: company?.email ?? '',
    companyName: company?.name ?? '',
    countryCode: 'RU',
    city: '',
    addressString: '',
    index: '',
    isDefault: isFirst,
  };
}

/** A stored profile as form values. */
export function senderFormOf(profile: SenderProfile): SenderForm {
  const s = profile.sender;
  const text = (key: string) => (typeof s[key] === 'string' ? (s[key] as string) : '');
  return { ...Object.fromEntries(senderKeys.map((k) => [k, text(k)])), profileName: profile.name, countryCode: text('countryCode') || 'RU', isDefault: profile.isDefault } as SenderForm;
}

/** Checks the profile form; errors are keyed by the form's own field names. */
export function checkSender(form: SenderForm, stored: Record<string, unknown> = {}): FormCheck<{ name: string; sender: z.output<typeof addressSchema>; isDefault: boolean }> {
  const typed = Object.fromEntries(senderKeys.map((k) => [k, form[k].trim() === '' ? undefined : form[k]]));
  // Fields this form does not show (street, house…) stay as they were; a cleared city or address is cleared.
  const sender = { ...stored, ...typed, countryCode: (form.countryCode.trim() || 'RU').toUpperCase() };
  const address = check(addressSchema, sender);
  const name = form.profileName.trim();
  const errors: Record<string, Said> = address.ok ? {} : { ...address.errors };
  if (!name) errors.profileName = said('msg.required');
  else if (name.length > 100) errors.profileName = said('msg.maxLength', { max: 100 });
  if (!address.ok || Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { name, sender: address.value, isDefault: form.isDefault } };
}

/** Aliases of the core's sender errors onto the profile form's fields. */
export const senderAliases: Record<string, string> = Object.fromEntries([
  ['name', 'profileName'],
  ...senderKeys.map((k) => [`sender.${k}`, k]),
]);

/** A connection as typed. Secrets are never filled from the core: an empty secret field keeps what is stored. */
export interface ConnectionForm {
  /** The kind (the core's carrier table, connections.kinds), whose settings are `fields`. */
  providerKey: string;
  name: string;
  testMode: boolean;
  baseUrl: string;
  /** Editing a test-mode connection of a kind with a public test account: drop the stored secrets for it. */
  forgetCredentials: boolean;
  /** The kind's settings, secret and other, by field name, as typed. */
  fields: Record<string, string>;
}

export const emptyConnectionForm = (providerKey = 'cdek'): ConnectionForm => ({ providerKey, name: '', testMode: false, baseUrl: '', forgetCredentials: false, fields: {} });

/** A stored connection as form values (its secrets never leave the core, so their fields start empty). */
export function connectionFormOf(c: Connection): ConnectionForm {
  const fields = Object.fromEntries(Object.entries(c.settings).map(([k, v]) => [k, String(v)]));
  return { ...emptyConnectionForm(c.providerKey), name: c.name, testMode: c.testMode, baseUrl: c.baseUrl ?? '', fields };
}

const neededSecrets = (kind: ConnectionKindInfo) => kind.fields.filter((f) => f.secret && f.required !== 'never');

/** Where the core's errors about a kind's settings show: on the field of that name ("credentials" on its first secret). */
export const connectionAliases = (kind: ConnectionKindInfo | undefined): Record<string, string> => {
  const first = kind && neededSecrets(kind)[0];
  return Object.fromEntries([
    ...(first ? [['credentials', first.name]] : []),
    ...(kind?.fields ?? []).flatMap((f) => [[`credentials.${f.name}`, f.name], [`settings.${f.name}`, f.name]]),
  ]);
};

/**
 * The kind's typed settings as connections.create / update take them, with the core's own rules marked before
 * anything is sent: typed secrets replace all stored ones, so once one is typed every needed one is; outside test
 * mode a kind with a public test account needs its secrets; an emptied setting goes back to its default.
 */
function fieldValues(form: ConnectionForm, kind: ConnectionKindInfo, stored?: Connection) {
  const credentials: Record<string, string> = {};
  const settings: Record<string, string | number | null> = {};
  const errors: Record<string, Said> = {};
  const typed = (name: string) => (form.fields[name] ?? '').trim();
  const secretsTyped = kind.fields.some((f) => f.secret && typed(f.name));
  const forget = !!stored && form.testMode && form.forgetCredentials && !secretsTyped;
  const secretsKept = !!stored?.credentialsStored && !secretsTyped && !forget;
  for (const f of kind.fields) {
    const value = typed(f.name);
    if (f.secret) {
      if (value) credentials[f.name] = value;
      else if (f.required === 'never' || secretsKept) continue;
      else if (secretsTyped || f.required === 'always') errors[f.name] = said('msg.required');
    } else if (value) {
      if (f.type === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) errors[f.name] = said('msg.number');
      else settings[f.name] = f.type === 'number' ? Number(value) : value;
    } else if (f.required === 'always') errors[f.name] = said('msg.required');
    else if (stored?.settings[f.name] !== undefined) settings[f.name] = null;
  }
  const byTestMode = neededSecrets(kind).filter((f) => f.required === 'outsideTestMode');
  if (!form.testMode && !secretsTyped && !secretsKept && byTestMode.length) errors[byTestMode[0].name] ??= said('rule.credentialsRequired');
  if (kind.baseUrl === 'required' && !form.baseUrl.trim()) errors.baseUrl = said('msg.required');
  const secrets = Object.keys(credentials).length ? credentials : forget ? null : undefined;
  return { secrets, settings, errors };
}

function withFieldErrors<T>(result: FormCheck<T>, errors: Record<string, Said>): FormCheck<T> {
  if (!Object.keys(errors).length) return result;
  return { ok: false, errors: { ...(result.ok ? {} : result.errors), ...errors } };
}

/** Checks a new connection of a kind; the value is connections.create's input. */
export function checkNewConnection(form: ConnectionForm, kind: ConnectionKindInfo): FormCheck<z.input<typeof connectionCreateSchema>> {
  const { secrets, settings, errors } = fieldValues(form, kind);
  const input = {
    providerKey: kind.key,
    name: form.name,
    testMode: kind.testMode && form.testMode,
    ...(form.baseUrl.trim() ? { baseUrl: form.baseUrl.trim() } : {}),
    ...(secrets ? { credentials: secrets } : {}),
    ...(Object.keys(settings).length ? { settings: settings as Record<string, string | number> } : {}),
  };
  const result = check(connectionCreateSchema, input, connectionAliases(kind));
  return withFieldErrors(result.ok ? { ok: true, value: input } : result, errors);
}

/** Checks a change of a stored connection; the value is connections.update's input. */
export function checkConnectionChange(form: ConnectionForm, stored: Connection, kind: ConnectionKindInfo): FormCheck<z.input<typeof connectionUpdateSchema>> {
  const { secrets, settings, errors } = fieldValues(form, kind, stored);
  const input = {
    id: stored.id,
    name: form.name,
    testMode: kind.testMode && form.testMode,
    baseUrl: form.baseUrl.trim() ? form.baseUrl.trim() : null,
    settings,
    ...(secrets !== undefined ? { credentials: secrets } : {}),
  };
  const result = check(connectionUpdateSchema, input, connectionAliases(kind));
  return withFieldErrors(result.ok ? { ok: true, value: input } : result, errors);
}

/** Preferences as typed. */
export interface PreferencesForm {
  refreshIntervalMinutes: string;
  stuckThresholdDays: string;
}

/** Checks the numbers with the core's limits. */
export function checkPreferences(form: PreferencesForm): FormCheck<{ refreshIntervalMinutes: number; stuckThresholdDays: number }> {
  const errors: Record<string, Said> = {};
  const value = { refreshIntervalMinutes: 0, stuckThresholdDays: 0 };
  for (const key of ['refreshIntervalMinutes', 'stuckThresholdDays'] as const) {
    const raw = form[key].trim();
    if (!raw) {
      errors[key] = 'is required';
      continue;
    }
    if (!/^\d+$/.test(raw)) {
      errors[key] = 'must be a whole number';
      continue;
    }
    const parsed = preferencesSchema.shape[key].unwrap().safeParse(Number(raw));
    if (parsed.success) value[key] = parsed.data;
    else errors[key] = issueMessage(parsed.error.issues[0], false);
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}

/**
 * The local interface's address: what the core says it serves, else (browser mode, an older core) the page's own
 * origin, which is the same server. Null in a window that serves none (the desktop shell today).
 */
export function localApiAddress(announced: string | null | undefined, transportKind: 'ipc' | 'http', origin: string): string | null {
  if (announced) return announced;
  return transportKind === 'http' ? `${origin}/v1` : null;
}

/** A byte count as people read it (kB / MB with one decimal). */
export function fileSize(bytes: number, language: 'ru' | 'en'): string {
  const units = language === 'ru' ? ['Б', 'КБ', 'МБ', 'ГБ'] : ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 ? String(value) : value.toLocaleString(language === 'ru' ? 'ru-RU' : 'en-GB', { maximumFractionDigits: 1 });
  return `${text} ${units[unit]}`;
}

/** Access from other computers as edited: the port as typed, the lists as chosen. */
export interface LanForm {
  enabled: boolean;
  addresses: string[];
  names: string[];
  port: string;
  offerInterface: boolean;
}

export const lanFormOf = (settings: LanSettings): LanForm => ({ ...settings, port: String(settings.port) });

/** Checks the LAN form with the core's rules; the value is what lan.set takes. */
export function checkLan(form: LanForm): FormCheck<LanSettings> {
  const port = form.port.trim();
  // Anything but digits is out of range, so the field says what it takes rather than "expected number".
  return check(lanSettingsSchema, { ...form, port: /^\d+$/.test(port) ? Number(port) : -1 });
}

/** A new packer as typed; checked with the core's own rules (a name, a password of at least 8 characters). */
export const checkNewUser = (form: { name: string; password: string }) => check(authCommands['users.create'].input, form);

/** A packer's new password, checked as the core checks it. */
export const checkNewPassword = (userId: number, password: string) => check(authCommands['users.setPassword'].input, { userId, password });

/** The company's API login and password (Settings → Local API), checked as the core checks them. */
export const checkApiLogin = (form: { login: string; password: string }) => check(apiLoginSettingsSchema, form);
