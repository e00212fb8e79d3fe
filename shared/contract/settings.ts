import { z } from 'zod';
import { command } from './define';
import {
  senderProfileCreateSchema, senderProfileSchema, senderProfileUpdateSchema, settingsSchema, settingsUpdateSchema,
} from '../schemas/settings';
import { pointSchema } from '../schemas/lists';

const empty = z.object({}).default({});

export const backupFileSchema = z.object({
  name: z.string(),
  path: z.string(),
  size: z.number().int(),
  /** `backup` made by backup.now, `pre-restore` the database a restore replaced. */
  kind: z.enum(['backup', 'pre-restore']),
  created: z.string(),
});
export type BackupFile = z.output<typeof backupFileSchema>;

export const settingsEnvironmentSchema = z.object({
  /** Where connection credentials are encrypted: the OS keychain (desktop), a key file in the data folder (browser mode). */
  secretStorage: z.object({ kind: z.enum(['os-keychain', 'key-file', 'other']), location: z.string().nullable() }),
  /** Base URL of the local interface as served now (…/v1), or null when this process serves none. */
  localApiUrl: z.string().nullable(),
});
export type SettingsEnvironment = z.output<typeof settingsEnvironmentSchema>;

/** Settings of the shop (company details, sender profiles, preferences), the API token, backups. */
export const settingsCommands = {
  'settings.get': command('Company details, sender profiles, preferences, the API token and the data folder', empty, settingsSchema),
  'settings.update': command('Change company details and/or preferences; answers the settings as they are now', settingsUpdateSchema, settingsSchema),
  'settings.environment': command('Where secrets are kept and where the local interface is served', empty, settingsEnvironmentSchema),
  'settings.regenerateToken': command(
    'Give the company a new API token; the old one stops working at once',
    empty,
    z.object({ apiToken: z.string() }),
  ),
  'senderProfiles.list': command('Sender profiles, the default first', empty, z.array(senderProfileSchema)),
  'senderProfiles.create': command('Add a sender profile (the first one becomes the default)', senderProfileCreateSchema, senderProfileSchema),
  'senderProfiles.update': command('Change a sender profile or make it the default', senderProfileUpdateSchema, senderProfileSchema),
  'senderProfiles.delete': command(
    'Remove a sender profile; when it was the default, the oldest remaining one becomes the default',
    z.object({ id: z.number().int().positive() }),
    z.object({ id: z.number().int(), deleted: z.string() }),
  ),
  'dropOff.usual': command(
    'The office where the shop usually brings this service\'s parcels (pointInId), or null',
    z.object({ providerKey: z.string().trim().min(1).max(50) }),
    pointSchema.nullable(),
  ),
  'dropOff.remember': command(
    'Remember an office of the service as where the shop brings its parcels; it must take parcels in',
    z.object({ providerKey: z.string().trim().min(1).max(50), pointId: z.number().int().positive() }),
    pointSchema,
  ),
  'backup.now': command('Copy the database (consistent, while the app runs) to the backups folder', empty, backupFileSchema),
  'backup.list': command('Backups in the data folder, newest first', empty, z.array(backupFileSchema)),
  'backup.restore': command(
    'Check a backup and stage it; it replaces the database at the next start (the current one is kept as pre-restore)',
    z.object({ file: z.string().trim().min(1).max(1000) }),
    z.object({ staged: z.string(), from: z.string(), schemaVersion: z.number().int(), restartRequired: z.literal(true), message: z.string() }),
  ),
  'backup.cancelRestore': command('Forget a staged restore', empty, z.object({ canceled: z.boolean() })),
  'logs.saveForSupport': command(
    'The log files of the last days (secrets never written) zipped for a support request',
    empty,
    z.object({ fileName: z.string(), base64: z.string(), files: z.array(z.string()) }),
  ),
};
