import { z } from 'zod';
import { base64Size, command, DEFAULT_COMMAND_BODY_LIMIT } from './define';
import { ownerOnly, shopStaff } from '../roles';
import {
  senderProfileCreateSchema, senderProfileSchema, senderProfileUpdateSchema, settingsSchema, settingsUpdateSchema,
} from '../schemas/settings';
import { pointSchema } from '../schemas/lists';

const empty = z.object({}).default({});

/** A backup's name in the backups folder: the only way to name one (never a path). */
const backupId = z.string().trim().regex(/^[\w.-]{1,200}\.db$/, 'must be a backup id from backup.list');

export const backupFileSchema = z.object({
  /** What backup.restore takes (the file's name in the backups folder). */
  id: z.string(),
  name: z.string(),
  path: z.string(),
  size: z.number().int(),
  /** `backup` made by backup.now, `pre-restore` the database a restore replaced, `uploaded` a file the owner picked. */
  kind: z.enum(['backup', 'pre-restore', 'uploaded']),
  created: z.string(),
});
export type BackupFile = z.output<typeof backupFileSchema>;

/** The largest database file an owner may upload to restore (a shop's years of orders fit many times over). */
export const BACKUP_UPLOAD_MAX_BYTES = 4 * 2 ** 30;
/** The largest part of an upload, decoded; the window sends its file in parts of this size. */
export const BACKUP_UPLOAD_PART_BYTES = 4 * 2 ** 20;

export const backupUploadPartSchema = z.object({
  /** Absent on the first part; then the id its answer gave. */
  uploadId: z.string().uuid('must be the uploadId the first part answered').optional(),
  /** The file's name as the owner knows it, for messages. */
  name: z.string().trim().max(255).optional(),
  /** Where this part starts in the file: the bytes received so far. */
  offset: z.number().int().min(0),
  base64: z
    .string()
    .max(Math.ceil(BACKUP_UPLOAD_PART_BYTES / 3) * 4, `must be at most ${BACKUP_UPLOAD_PART_BYTES / 2 ** 20} MiB per part`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
  /** The file's last part: check it and keep it as a backup. */
  done: z.boolean(),
});
export type BackupUploadPart = z.output<typeof backupUploadPartSchema>;
export const backupUploadStateSchema = z.object({ uploadId: z.string(), received: z.number().int(), backup: backupFileSchema.nullable() });
export type BackupUploadState = z.output<typeof backupUploadStateSchema>;

export const settingsEnvironmentSchema = z.object({
  /** Where connection credentials are encrypted: the OS keychain (desktop), a key file in the data folder (browser mode). */
  secretStorage: z.object({ kind: z.enum(['os-keychain', 'key-file', 'other']), location: z.string().nullable() }),
  /** Base URL of the local interface as served now (…/v1), or null when this process serves none. */
  localApiUrl: z.string().nullable(),
});
export type SettingsEnvironment = z.output<typeof settingsEnvironmentSchema>;

/** Settings of the shop (company details, sender profiles, preferences), the API token, backups. */
export const settingsCommands = {
  'settings.get': command('Company details, sender profiles, preferences, the API token and the data folder', empty, settingsSchema, ownerOnly),
  'settings.update': command('Change company details and/or preferences; answers the settings as they are now', settingsUpdateSchema, settingsSchema, ownerOnly),
  'settings.environment': command('Where secrets are kept and where the local interface is served', empty, settingsEnvironmentSchema, ownerOnly),
  'settings.regenerateToken': command(
    'Give the company a new API token; the old one stops working at once',
    empty,
    z.object({ apiToken: z.string() }),
    ownerOnly,
  ),
  'senderProfiles.list': command('Sender profiles, the default first', empty, z.array(senderProfileSchema), shopStaff),
  'senderProfiles.create': command('Add a sender profile (the first one becomes the default)', senderProfileCreateSchema, senderProfileSchema, ownerOnly),
  'senderProfiles.update': command('Change a sender profile or make it the default', senderProfileUpdateSchema, senderProfileSchema, ownerOnly),
  'senderProfiles.delete': command(
    'Remove a sender profile; when it was the default, the oldest remaining one becomes the default',
    z.object({ id: z.number().int().positive() }),
    z.object({ id: z.number().int(), deleted: z.string() }),
    ownerOnly,
  ),
  'backup.now': command('Copy the database (consistent, while the app runs) to the backups folder', empty, backupFileSchema, ownerOnly),
  'backup.list': command('Backups in the data folder, newest first', empty, z.array(backupFileSchema), ownerOnly),
  'backup.upload': command(
    'A part of a database file the owner picked, in order; the last part checks the whole file is a ShipDesk database this version can open and keeps it in the backups folder',
    backupUploadPartSchema,
    backupUploadStateSchema,
    ownerOnly,
    // One part as base64 (4 MiB → 5.3 MiB) and the rest of the body.
    base64Size(BACKUP_UPLOAD_PART_BYTES) + DEFAULT_COMMAND_BODY_LIMIT,
  ),
  'dropOff.usual': command(
    'The office where the shop usually brings this service\'s parcels (pointInId), or null',
    z.object({ providerKey: z.string().trim().min(1).max(50) }),
    pointSchema.nullable(),
    shopStaff,
  ),
  'dropOff.remember': command(
    'Remember an office of the service as where the shop brings its parcels; it must take parcels in',
    z.object({ providerKey: z.string().trim().min(1).max(50), pointId: z.number().int().positive() }),
    pointSchema,
    shopStaff,
  ),
  'backup.restore': command(
    'Check a backup (by its id from backup.list) and stage it; it replaces the database at the next start (the current one is kept as pre-restore)',
    z.object({ id: backupId }),
    z.object({ staged: z.string(), from: z.string(), schemaVersion: z.number().int(), restartRequired: z.literal(true), message: z.string() }),
    ownerOnly,
  ),
  'backup.cancelRestore': command('Forget a staged restore', empty, z.object({ canceled: z.boolean() }), ownerOnly),
  'logs.saveForSupport': command(
    'The log files of the last days (secrets never written) zipped for a support request',
    empty,
    z.object({ fileName: z.string(), base64: z.string(), files: z.array(z.string()) }),
    ownerOnly,
  ),
};
