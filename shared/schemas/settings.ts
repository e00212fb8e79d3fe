import { z } from 'zod';
import { addressSchema } from './order';
import { booleanLike, optionalPhoneNumber, optionalText, text } from './primitives';

export const languages = ['ru', 'en', 'system'] as const;

/** App-wide preferences, with their defaults. */
export const preferencesSchema = z.object({
  /** How often the scheduler asks the delivery services for new statuses. */
  refreshIntervalMinutes: z.number().int().min(5, 'must be at least 5').max(1440, 'must be at most 1440').default(30),
  /** An order whose status has not moved for this many days is stuck. */
  stuckThresholdDays: z.number().int().min(1, 'must be at least 1').max(365, 'must be at most 365').default(5),
  language: z.enum(languages).default('system'),
  /** Off: the local HTTP interface (/v1/…) answers 403 to other programs; the window keeps working. */
  localApiEnabled: z.boolean().default(true),
  /** On: an upload's file.url may point to this computer or the local network (off: public addresses only). */
  allowLocalDownloads: z.boolean().default(false),
  /** On: a webhook may call this computer or the local network (off: public addresses only). */
  allowLocalWebhooks: z.boolean().default(false),
});
export type Preferences = z.output<typeof preferencesSchema>;

/** The ИНН's check digits (the tax service's weights): the last one of 10 digits, the last two of 12. */
export function innChecksumOk(inn: string): boolean {
  const d = [...inn].map(Number);
  const check = (weights: number[]) => (weights.reduce((sum, w, i) => sum + w * d[i], 0) % 11) % 10;
  if (d.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  if (d.length === 12) return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
  return false;
}

const digits = (min: number, max: number, what: string) =>
  optionalText(20).refine((v) => v === undefined || new RegExp(`^\\d{${min},${max}}$`).test(v), `must be ${what}`);

/** The shop's company details (shown on documents and in the sender profiles' defaults). */
export const companyDetailsSchema = z.object({
  name: text(255),
  inn: digits(10, 12, '10 or 12 digits')
    .refine((v) => v === undefined || v.length !== 11, 'must be 10 or 12 digits')
    .refine((v) => v === undefined || !/^(\d{10}|\d{12})$/.test(v) || innChecksumOk(v), 'has a wrong check digit: check the number'),
  kpp: digits(9, 9, '9 digits'),
  ogrn: digits(13, 15, '13 or 15 digits'),
  legalAddress: optionalText(500),
  phone: optionalPhoneNumber,
  email: z.string().trim().email('must be an e-mail address').optional().or(z.literal('').transform(() => undefined)),
  contactName: optionalText(255),
});
export type CompanyDetails = z.output<typeof companyDetailsSchema>;

export const senderProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The order's sender block, ready to put into the form. */
  sender: z.record(z.string(), z.unknown()),
  isDefault: z.boolean(),
  created: z.string(),
  updated: z.string(),
});
export type SenderProfile = z.output<typeof senderProfileSchema>;

export const senderProfileCreateSchema = z.object({
  name: text(100),
  sender: addressSchema,
  /** The first profile of a company is the default whatever this says. */
  isDefault: booleanLike.optional(),
});

export const senderProfileUpdateSchema = z.object({
  id: z.number().int().positive(),
  name: text(100).optional(),
  sender: addressSchema.optional(),
  /** true makes it the default; false is ignored (make another one the default instead). */
  isDefault: booleanLike.optional(),
});

export const settingsSchema = z.object({
  company: companyDetailsSchema,
  preferences: preferencesSchema,
  senderProfiles: z.array(senderProfileSchema),
  defaultSenderProfileId: z.number().int().nullable(),
  /** The company's token for the local interface (Authorization header). */
  apiToken: z.string(),
  /** Where the database and backups live. */
  dataDir: z.string(),
  backupsDir: z.string(),
  /** A restore staged by backup.restore that applies at the next start, or null. */
  pendingRestore: z.string().nullable(),
});
export type Settings = z.output<typeof settingsSchema>;

export const settingsUpdateSchema = z.object({
  company: companyDetailsSchema.partial().optional(),
  preferences: z
    .object({
      refreshIntervalMinutes: preferencesSchema.shape.refreshIntervalMinutes.unwrap().optional(),
      stuckThresholdDays: preferencesSchema.shape.stuckThresholdDays.unwrap().optional(),
      language: z.enum(languages).optional(),
      localApiEnabled: booleanLike.optional(),
      allowLocalDownloads: booleanLike.optional(),
      allowLocalWebhooks: booleanLike.optional(),
    })
    .optional(),
});
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;
