import { z } from 'zod';
import { command } from './define';
import { ownerOnly } from '../roles';

/** A PostgreSQL server's URL as the owner types it: postgres://user:password@host:port/database. */
export const postgresUrlSchema = z
  .string()
  .trim()
  .max(2000)
  // scheme, optional user[:password]@, a host (name, IPv4 or [IPv6]), optional port, the database, optional parameters
  .regex(/^postgres(ql)?:\/\/([^@/\s]+@)?([^@/\s:[\]]+|\[[0-9a-f:.]+\])(:\d{1,5})?\/[^/?#\s]+(\?\S*)?$/i, 'must be a PostgreSQL URL such as postgres://user:password@host:5432/shipdesk');

/** Where the data lives, said without any password. */
export const databaseWhereSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('sqlite'), file: z.string() }),
  z.object({ engine: z.literal('postgres'), host: z.string(), port: z.number().int(), database: z.string(), user: z.string() }),
]);
export type DatabaseWhere = z.output<typeof databaseWhereSchema>;

export const databaseStateSchema = z.object({
  /** What this running app has open. */
  inUse: databaseWhereSchema,
  /** What the app opens at its next start (the stored choice; serve's --database overrides it). */
  next: databaseWhereSchema,
});
export type DatabaseState = z.output<typeof databaseStateSchema>;

/** Why a PostgreSQL server could not be checked: the window says each in the user's language. */
export const databaseProblems = ['unreachable', 'auth', 'no-database', 'other'] as const;
export type DatabaseProblem = (typeof databaseProblems)[number];

export const databaseCheckSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    serverVersion: z.string(),
    /** Whether ShipDesk runs on this version (PostgreSQL 15 or newer). */
    supported: z.boolean(),
    /** empty: no tables; ours: ShipDesk's schema (`orders` orders in it); other: another program's tables. */
    contents: z.enum(['empty', 'ours', 'other']),
    orders: z.number().int().nullable(),
  }),
  z.object({ ok: z.literal(false), problem: z.enum(databaseProblems), detail: z.string() }),
]);
export type DatabaseCheck = z.output<typeof databaseCheckSchema>;

export const databaseChoiceSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('sqlite') }),
  z.object({ engine: z.literal('postgres'), url: postgresUrlSchema }),
]);
export type DatabaseChoice = z.output<typeof databaseChoiceSchema>;

/** Settings → Database: which engine keeps the shop's data (the owner's; applied at the next start). */
export const databaseCommands = {
  'settings.database': command('The database in use and the one the next start opens (no passwords)', z.object({}).default({}), databaseStateSchema, ownerOnly),
  'settings.databaseCheck': command('Connect to a PostgreSQL server: its version and whether the database is empty, ShipDesk\'s or another program\'s', z.object({ url: postgresUrlSchema }), databaseCheckSchema, ownerOnly),
  'settings.databaseChoose': command('Store the database the next start opens (the password sealed like connection secrets)', databaseChoiceSchema, databaseStateSchema, ownerOnly),
};
