import { z } from 'zod';
import { booleanLike, positiveInt, text } from '../schemas/primitives';
import { command } from './define';
import { ownerOnly } from '../roles';

/**
 * Services a shop connects with its own account (the sandbox services need no connection). `upstream` is
 * an aggregator that speaks the delivery interface itself (another ShipDesk too): a base URL and a token;
 * each of its delivery services then appears here as `upstream:<connection id>:<its key>`.
 */
export const connectableProviderKeys = ['cdek', 'upstream'] as const;

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/i, 'must be an http(s) address');

export const credentialsSchema = z.object({
  clientId: text(200),
  clientSecret: text(200),
});

/** An upstream aggregator's API token (sent as `Authorization: <token>`). */
export const upstreamCredentialsSchema = z.object({ token: text(500) });

/** CDEK takes clientId + clientSecret, an upstream a token. */
const anyCredentials = z.union([credentialsSchema, upstreamCredentialsSchema], { error: 'must be { clientId, clientSecret } (CDEK) or { token } (upstream)' });

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
  created: z.string(),
  updated: z.string(),
});
export type Connection = z.output<typeof connectionSchema>;

export const connectionCreateSchema = z
  .object({
    providerKey: z.enum(connectableProviderKeys),
    name: text(100),
    testMode: booleanLike.default(false),
    baseUrl: httpUrl.optional(),
    credentials: anyCredentials.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.providerKey === 'upstream') {
      if (!c.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'is required for an upstream aggregator' });
      if (!c.credentials || !('token' in c.credentials)) ctx.addIssue({ code: 'custom', path: ['credentials', 'token'], message: 'is required for an upstream aggregator' });
      return;
    }
    if (!c.testMode && !c.credentials) ctx.addIssue({ code: 'custom', path: ['credentials'], message: 'are required outside test mode' });
    if (c.credentials && !('clientId' in c.credentials)) ctx.addIssue({ code: 'custom', path: ['credentials', 'clientId'], message: 'is required for CDEK' });
  });

export const connectionUpdateSchema = z.object({
  id: positiveInt,
  name: text(100).optional(),
  testMode: booleanLike.optional(),
  /** null removes the override. */
  baseUrl: httpUrl.nullable().optional(),
  /** null forgets the stored credentials (test mode only). */
  credentials: anyCredentials.nullable().optional(),
});

export const connectionIdSchema = z.object({ id: positiveInt });

export const connectionTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  checkedAt: z.string(),
  /** Lifetime of the token the service gave, when it gave one. */
  tokenExpiresIn: z.number().nullable(),
});
export type ConnectionTestResult = z.output<typeof connectionTestResultSchema>;

export const connectionCommands = {
  'connections.list': command('Connections to delivery services (accounts), without their secrets', z.object({}).default({}), z.array(connectionSchema), ownerOnly),
  'connections.create': command('Connect a delivery service account', connectionCreateSchema, connectionSchema, ownerOnly),
  'connections.update': command('Change a connection; new credentials replace the stored ones', connectionUpdateSchema, connectionSchema, ownerOnly),
  'connections.delete': command('Remove a connection and its stored credentials', connectionIdSchema, z.object({ id: z.number().int(), deleted: z.string() }), ownerOnly),
  'connections.test': command('Sign in to the service with the connection and make one cheap call', connectionIdSchema, connectionTestResultSchema, ownerOnly),
};
