import { createHash, randomBytes } from 'node:crypto';
import type { Identity } from '../../../shared/roles';
import type { User } from '../../../shared/contract/auth';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import { tokenFrom, type CompanyService } from '../companies/company-service';
import { badRequest, notFound, tooManyAttempts, unauthorized } from '../errors';
import { said } from '../../../shared/messages';
import type { EventBus } from '../events';
import type { AccountsStore, SessionsToRevoke } from '../store/accounts/accounts-store';
import { clientOf, type Caller, type Visitor } from './caller';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import { createAttemptLimiter } from './attempt-limiter';

/** A packer's session lasts one working shift from sign-in (fixed, not sliding): then they sign in again. */
export const packerSessionMs = 12 * 60 * 60 * 1000;
/** Failed sign-ins allowed per name, and per address, in the window. */
export const signInLimits = { perName: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/**
 * A packer's name as sign-in and uniqueness compare it: case-insensitive in any script (SQLite's NOCASE folds
 * Latin only, so "Вера" and "вера" would be two packers) and ё read as е, as people type it either way.
 */
export const packerNameKey = (name: string) => name.trim().normalize('NFC').toLocaleLowerCase('ru').replaceAll('ё', 'е');

const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

export interface AuthDeps {
  accounts: AccountsStore;
  clock: Clock;
  companies: CompanyService;
  events: EventBus;
}

/** Packers, their passwords (scrypt) and the browser sessions of the owner and the packers. */
export function createAuthService({ accounts, clock, companies, events }: AuthDeps) {
  // Kept in memory: a restart forgives, which costs an attacker a restart of the shop's PC, not a faster guess.
  const byName = createAttemptLimiter({ max: signInLimits.perName, windowMs: signInLimits.windowMs, now: () => clock.now() });
  const byAddress = createAttemptLimiter({ max: signInLimits.perAddress, windowMs: signInLimits.windowMs, now: () => clock.now() });

  async function openSession(role: 'owner' | 'packer', companyId: number, userId: number | null, expiresAt: number | null) {
    const secret = newSecret();
    const now = clock.now();
    const id = await accounts.openSession({ secretHash: secretHash(secret), role, companyId, userId, at: now, expiresAt });
    return { id, secret, expiresAt };
  }

  /** Ends sessions now and tells their open event streams, which close (the window then asks to sign in). */
  async function revoke(which: SessionsToRevoke): Promise<number> {
    const ended = await accounts.revokeSessions(which, clock.now());
    for (const session of ended) events.publish({ type: 'session.ended', companyId: session.companyId, sessionId: session.id });
    return ended.length;
  }

  /** The owner's users list in every window of the shop follows changes made elsewhere. */
  const usersChanged = (companyId: number) => events.publish({ type: 'settings.changed', companyId, what: 'users' });

  /** The company's packer of that name (a shop has a handful of packers: comparing in code keeps one rule for every engine). */
  async function findUserByName(companyId: number, name: string) {
    const key = packerNameKey(name);
    return (await accounts.packers(companyId)).find((packer) => packerNameKey(packer.name) === key);
  }

  async function findUser(companyId: number, userId: number) {
    const packer = await accounts.packer(companyId, userId);
    if (!packer) throw notFound(said('notFound.packer', { id: userId }));
    return packer;
  }

  async function describeUser(companyId: number, userId: number): Promise<User> {
    return (await listUsers(companyId)).find((u) => u.id === userId)!;
  }

  async function listUsers(companyId: number): Promise<User[]> {
    return (await accounts.packerSummaries(companyId, clock.now())).map((p) => ({
      id: p.id,
      name: p.name,
      created: formatTimestamp(p.createdAt),
      activeSessions: p.activeSessions,
      lastSignIn: p.lastSignInAt === null ? null : formatTimestamp(p.lastSignInAt),
    }));
  }

  const service = {
    /**
     * Browser mode's link: a new owner session for the shop. The previous run's link stops working, so a
     * link left in a browser history opens nothing after a restart.
     */
    async openOwnerSession(): Promise<{ secret: string; expiresAt: null }> {
      const { companyId } = await companies.desktop();
      await revoke({ role: 'owner' });
      const session = await openSession('owner', companyId, null, null);
      return { secret: session.secret, expiresAt: null };
    },

    /** The caller behind a session secret, or undefined when it is unknown, expired or revoked. */
    async resolve(secret: string, address: string | null): Promise<Caller | undefined> {
      if (!secret) return undefined;
      const session = await accounts.sessionBySecretHash(secretHash(secret));
      const now = clock.now();
      if (!session || session.revokedAt !== null || (session.expiresAt !== null && session.expiresAt <= now)) return undefined;
      if (now - session.lastSeenAt > 60_000) await accounts.touchSession(session.id, now);
      return { role: session.role, companyId: session.companyId, sessionId: session.id, userId: session.userId, address };
    },

    /**
     * Who an /app request comes from, by its Authorization header: `Session <secret>` of a live session is
     * that session's owner or packer; a company's API token is a client (which /app refuses); anything else,
     * an ended session included, is a guest who may only sign in.
     */
    async visitor(authorization: string | undefined, address: string | null): Promise<Visitor> {
      const header = (authorization ?? '').trim();
      const session = /^Session\s+(\S+)$/i.exec(header);
      if (session) return (await service.resolve(session[1], address)) ?? { role: null, address };
      const company = header ? await companies.byToken(tokenFrom(header)) : undefined;
      return company ? clientOf(company.companyId, address) : { role: null, address };
    },

    /** Signs a packer in. Failures are counted per name and per address; past the limit even a right password waits. */
    async signIn(input: { name: string; password: string }, address: string | null) {
      const nameKey = packerNameKey(input.name);
      const addressKey = address ?? 'local';
      const wait = Math.max(byName.retryAfter(nameKey), byAddress.retryAfter(addressKey));
      if (wait > 0) throw tooManyAttempts(wait / 1000);
      const { companyId } = await companies.desktop();
      const user = await findUserByName(companyId, input.name);
      const matches = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
      if (!user || !matches) {
        byName.fail(nameKey);
        byAddress.fail(addressKey);
        throw unauthorized('Wrong name or password');
      }
      byName.succeed(nameKey); // the name's failures only: one packer's success does not unlock guessing from the address
      const { id, secret, expiresAt } = await openSession('packer', companyId, user.id, clock.now() + packerSessionMs);
      usersChanged(companyId);
      const identity = await service.identity({ role: 'packer', companyId, sessionId: id, userId: user.id, address });
      return { session: { secret, expiresAt }, identity };
    },

    async signOut(caller: Caller) {
      return { signedOut: caller.sessionId !== null && (await revoke({ sessionId: caller.sessionId })) > 0 };
    },

    /** Who the caller is, as the header shows it. */
    async identity(caller: Caller): Promise<Identity> {
      const company = await accounts.company(caller.companyId);
      if (!company) throw new Error(`Company ${caller.companyId} does not exist`);
      const userName = caller.userId === null ? undefined : await accounts.packerName(caller.userId);
      const session = caller.sessionId === null ? undefined : await accounts.session(caller.sessionId);
      return { role: caller.role, companyId: caller.companyId, companyName: company.name, userName: userName ?? null, expiresAt: session?.expiresAt ?? null };
    },

    listUsers: (caller: Caller) => listUsers(caller.companyId),

    async createUser(caller: Caller, input: { name: string; password: string }): Promise<User> {
      if (await findUserByName(caller.companyId, input.name)) throw badRequest(said('access.nameTaken', { name: input.name }));
      const id = await accounts.createPacker(caller.companyId, { name: input.name, passwordHash: await hashPassword(input.password), at: clock.now() });
      if (id === 'taken') throw badRequest(said('access.nameTaken', { name: input.name }));
      usersChanged(caller.companyId);
      return describeUser(caller.companyId, id);
    },

    /** A new password ends the packer's sessions: whoever knew the old one is out. */
    async setPassword(caller: Caller, input: { userId: number; password: string }): Promise<User> {
      const user = await findUser(caller.companyId, input.userId);
      await accounts.setPackerPassword(user.id, await hashPassword(input.password));
      await revoke({ userId: user.id });
      usersChanged(caller.companyId);
      return describeUser(caller.companyId, user.id);
    },

    async removeUser(caller: Caller, input: { userId: number }) {
      const user = await findUser(caller.companyId, input.userId);
      await revoke({ userId: user.id });
      await accounts.deletePacker(user.id);
      usersChanged(caller.companyId);
      return { id: user.id, deleted: formatTimestamp(clock.now()) };
    },

    async revokeSessions(caller: Caller, input: { userId: number }) {
      const user = await findUser(caller.companyId, input.userId);
      const revoked = await revoke({ userId: user.id });
      usersChanged(caller.companyId);
      return { revoked };
    },
  };
  return service;
}

export type AuthService = ReturnType<typeof createAuthService>;
