import { z } from 'zod';
import { command } from './define';
import { anyone, identitySchema, ownerOnly, shopStaff } from '../roles';

const userName = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
/** Long enough to resist guessing at the rate sign-in allows; short enough to type at a packing table. */
const password = z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters');
const userId = z.number().int().positive();

/** A browser session: the secret goes in `Authorization: Session <secret>` of every /app call. */
export const sessionSchema = z.object({
  secret: z.string(),
  /** Epoch ms; null for the owner's session, which lasts as long as the app runs. */
  expiresAt: z.number().nullable(),
});

/** A packer the owner added. Passwords never leave the core. */
export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created: z.string(),
  /** Sessions signed in now (not expired, not revoked). */
  activeSessions: z.number().int(),
  lastSignIn: z.string().nullable(),
});
export type User = z.output<typeof userSchema>;

/** Signing in and out, who the window is, and the packers the owner manages. */
export const authCommands = {
  'auth.signIn': command(
    'Sign a packer in with the name and password the owner set; answers a session and who it is. Attempts are limited per name and per address',
    z.object({ name: userName, password: z.string().min(1, 'is required').max(200) }),
    z.object({ session: sessionSchema, identity: identitySchema }),
    anyone,
  ),
  'auth.signOut': command('End the calling session', z.object({}).default({}), z.object({ signedOut: z.boolean() }), shopStaff),
  'session.current': command('Who the window is signed in as: role, shop, name and when the session ends', z.object({}).default({}), identitySchema, shopStaff),
  'users.list': command('Packers of the shop, oldest first', z.object({}).default({}), z.array(userSchema), ownerOnly),
  'users.create': command('Add a packer with a name (unique) and a password', z.object({ name: userName, password }), userSchema, ownerOnly),
  'users.setPassword': command('Give a packer a new password; their sessions end', z.object({ userId, password }), userSchema, ownerOnly),
  'users.remove': command('Remove a packer; their sessions end at once', z.object({ userId }), z.object({ id: z.number().int(), deleted: z.string() }), ownerOnly),
  'users.revokeSessions': command('End every session of a packer now (they must sign in again)', z.object({ userId }), z.object({ revoked: z.number().int() }), ownerOnly),
};
