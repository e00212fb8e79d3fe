import { z } from 'zod';
import { booleanLike, positiveInt, text } from '../schemas/primitives';
import { command } from './define';
import { ownerOnly } from '../roles';
import { messageRefSchema } from '../schemas/error-body';

/**
 * Services a shop connects with its own account (the sandbox services need no connection). Which kinds exist
 * and what each needs is the core's table (electron/core/providers/kinds.ts), told by `connections.kinds`;
 * `upstream` is an aggregator that speaks the delivery interface itself (another ShipDesk too): each of its
 * delivery services then appears as `upstream:<connection id>:<its key>`.
 */
const httpUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/i, 'must be an http(s) address');

/** One setting of a connection kind; secret ones are sealed at rest and never leave the core. */
export const connectionFieldInfoSchema = z.object({
  name: z.string(),
  label: z.object({ ru: z.string(), en: z.string() }),
  secret: z.boolean(),
  type: z.enum(['text', 'number']),
  /** Always, only outside test mode (the service's public test account stands in), or never. */
  required: z.enum(['always', 'outsideTestMode', 'never']),
  /** Its last characters tell accounts apart in the list (clientIdHint). */
  hint: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export type ConnectionFieldInfo = z.output<typeof connectionFieldInfoSchema>;

/** A kind of connection as the settings form draws it. */
export const connectionKindInfoSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** Its name in the window's two languages. */
  names: z.object({ ru: z.string(), en: z.string() }),
  testMode: z.boolean(),
  /** Test mode works without the shop's own secrets (the service's public test account). */
  publicTestAccount: z.boolean(),
  baseUrl: z.enum(['required', 'optional']),
  /** An aggregator brings several services, each under `<key>:<connection id>:<its key>`. */
  aggregator: z.boolean(),
  fields: z.array(connectionFieldInfoSchema),
});
export type ConnectionKindInfo = z.output<typeof connectionKindInfoSchema>;

export const connectionSettingValueSchema = z.union([z.number(), z.string().trim().max(500), z.boolean()]);
export type ConnectionSettingValue = z.output<typeof connectionSettingValueSchema>;

/** Secret values by field name (CDEK: clientId + clientSecret, an upstream: token); the kind says which it needs. */
const credentialsInput = z.record(z.string().max(64), z.string().trim().max(500, 'must be at most 500 characters'), { error: 'must be an object of the service\'s secret fields' });
/** The other settings by field name (numbers such as how many calls may run at once). */
const settingsInput = z.record(z.string().max(64), connectionSettingValueSchema, { error: 'must be an object of the service\'s settings' });

/** A connection as the UI sees it: secrets never leave the core. `id` is the providerConnectId of orders. */
export const connectionSchema = z.object({
  id: z.number().int(),
  providerKey: z.string(),
  name: z.string(),
  testMode: z.boolean(),
  /** Address override (a proxy or a local fake); null = the service's own host for the mode. */
  baseUrl: z.string().nullable(),
  /** Last characters of the account id (an upstream: of its token), to tell accounts apart; null when none is stored. */
  clientIdHint: z.string().nullable(),
  /** False when no credentials are stored (test mode then uses the service's public test account). */
  credentialsStored: z.boolean(),
  /** False when the stored credentials cannot be decrypted on this computer: enter them again. */
  credentialsReadable: z.boolean(),
  /** Orders without providerConnectId go through the default connection (the oldest of the service). */
  isDefault: z.boolean(),
  /** The kind's non-secret settings as stored. */
  settings: z.record(z.string(), connectionSettingValueSchema),
  created: z.string(),
  updated: z.string(),
});
export type Connection = z.output<typeof connectionSchema>;

/** The kind's own rules (which fields, which are required) are checked by the core against its table. */
export const connectionCreateSchema = z.object({
  providerKey: text(64),
  name: text(100),
  testMode: booleanLike.default(false),
  baseUrl: httpUrl.optional(),
  credentials: credentialsInput.optional(),
  settings: settingsInput.optional(),
});

export const connectionUpdateSchema = z.object({
  id: positiveInt,
  name: text(100).optional(),
  testMode: booleanLike.optional(),
  /** null removes the override. */
  baseUrl: httpUrl.nullable().optional(),
  /** New secrets replace all stored ones; null forgets them (test mode only). */
  credentials: credentialsInput.nullable().optional(),
  /** Settings named here replace the stored ones, null takes one back to its default; others stay. */
  settings: z.record(z.string().max(64), connectionSettingValueSchema.nullable(), { error: 'must be an object of the service\'s settings' }).optional(),
});

export const connectionIdSchema = z.object({ id: positiveInt });

export const connectionTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** The message as data (shared/messages) for the window; a service's own words travel as a parameter. */
  key: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number(), messageRefSchema])).optional(),
  checkedAt: z.string(),
  /** Lifetime of the token the service gave, when it gave one. */
  tokenExpiresIn: z.number().nullable(),
});
export type ConnectionTestResult = z.output<typeof connectionTestResultSchema>;

export const connectionCommands = {
  'connections.kinds': command('Kinds of delivery service accounts the shop can connect, with the settings each needs', z.object({}).default({}), z.array(connectionKindInfoSchema), ownerOnly),
  'connections.list': command('Connections to delivery services (accounts), without their secrets', z.object({}).default({}), z.array(connectionSchema), ownerOnly),
  'connections.create': command('Connect a delivery service account', connectionCreateSchema, connectionSchema, ownerOnly),
  'connections.update': command('Change a connection; new credentials replace the stored ones', connectionUpdateSchema, connectionSchema, ownerOnly),
  'connections.delete': command('Remove a connection and its stored credentials', connectionIdSchema, z.object({ id: z.number().int(), deleted: z.string() }), ownerOnly),
  'connections.test': command('Sign in to the service with the connection and make one cheap call', connectionIdSchema, connectionTestResultSchema, ownerOnly),
};
