import { createHash, randomBytes } from 'node:crypto';
import type { Identity } from '../../../shared/roles';
import type { User } from '../../../shared/contract/auth';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import { tokenFrom, type CompanyService } from '../companies/company-service';
import { badRequest, notFound, tooManyAttempts, unauthorized } from '../errors';
import type { EventBus } from '../events';
import type { Db } from '../store/database';
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
  db: Db;
  clock: Clock;
  companies: CompanyService;
  events: EventBus;
}

/** Packers, their passwords (scrypt) and the browser sessions of the owner and the packers. */
export function createAuthService({ db, clock, companies, events }: AuthDeps) {
  // Kept in memory: a restart forgives, which costs an attacker a restart of the shop's PC, not a faster guess.
  const byName = createAttemptLimiter({ max: signInLimits.perName, windowMs: signInLimits.windowMs, now: () => clock.now() });
  const byAddress = createAttemptLimiter({ max: signInLimits.perAddress, windowMs: signInLimits.windowMs, now: () => clock.now() });

  async function openSession(role: 'owner' | 'packer', companyId: number, userId: number | null, expiresAt: number | null) {
    const secret = newSecret();
    const now = clock.now();
    const row = await db
      .insertInto('sessions')
      .values({ secret_hash: secretHash(secret), role, company_id: companyId, user_id: userId, created_at: now, last_seen_at: now, expires_at: expiresAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, secret, expiresAt };
  }

  /** Ends sessions now and tells their open event streams, which close (the window then asks to sign in). */
  async function revoke(where: { sessionId?: number; userId?: number; role?: 'owner' }): Promise<number> {
    let q = db.selectFrom('sessions').select(['id', 'company_id']).where('revoked_at', 'is', null);
    if (where.sessionId !== undefined) q = q.where('id', '=', where.sessionId);
    if (where.userId !== undefined) q = q.where('user_id', '=', where.userId);
    if (where.role !== undefined) q = q.where('role', '=', where.role);
    const rows = await q.execute();
    if (rows.length === 0) return 0;
    await db.updateTable('sessions').set({ revoked_at: clock.now() }).where('id', 'in', rows.map((r) => r.id)).execute();
    for (const row of rows) events.publish({ type: 'session.ended', companyId: row.company_id, sessionId: row.id });
    return rows.length;
  }

  /** The owner's users list in every window of the shop follows changes made elsewhere. */
  const usersChanged = (companyId: number) => events.publish({ type: 'settings.changed', companyId, what: 'users' });

  /** The company's packer of that name (a shop has a handful of packers: comparing in code keeps one rule for every engine). */
  async function findUserByName(companyId: number, name: string) {
    const key = packerNameKey(name);
    const rows = await db.selectFrom('users').selectAll().where('company_id', '=', companyId).execute();
    return rows.find((row) => packerNameKey(row.name) === key);
  }

  async function findUser(companyId: number, userId: number) {
    const row = await db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('id', '=', userId).executeTakeFirst();
    if (!row) throw notFound(`Packer ${userId} was not found`);
    return row;
  }

  async function describeUser(companyId: number, userId: number): Promise<User> {
    return (await listUsers(companyId)).find((u) => u.id === userId)!;
  }

  async function listUsers(companyId: number): Promise<User[]> {
    const now = clock.now();
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('sessions as s', (join) =>
        join.onRef('s.user_id', '=', 'u.id').on('s.revoked_at', 'is', null).on((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)])),
      )
      .select((eb) => ['u.id', 'u.name', 'u.created_at', eb.fn.count<number>('s.id').as('active')])
      .where('u.company_id', '=', companyId)
      .groupBy('u.id')
      .orderBy('u.id')
      .execute();
    const lastSignIns = await db
      .selectFrom('sessions')
      .select((eb) => ['user_id', eb.fn.max<number>('created_at').as('at')])
      .where('company_id', '=', companyId)
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .execute();
    const last = new Map(lastSignIns.map((r) => [r.user_id, r.at]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      created: formatTimestamp(r.created_at),
      activeSessions: Number(r.active),
      lastSignIn: last.has(r.id) ? formatTimestamp(Number(last.get(r.id))) : null,
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
      const row = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', secretHash(secret)).executeTakeFirst();
      const now = clock.now();
      if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return undefined;
      if (now - row.last_seen_at > 60_000) await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
      return { role: row.role, companyId: row.company_id, sessionId: row.id, userId: row.user_id, address };
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
      const matches = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash()));
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
      const company = await db.selectFrom('companies').select('name').where('id', '=', caller.companyId).executeTakeFirstOrThrow();
      const user = caller.userId === null ? undefined : await db.selectFrom('users').select('name').where('id', '=', caller.userId).executeTakeFirst();
      const session =
        caller.sessionId === null ? undefined : await db.selectFrom('sessions').select('expires_at').where('id', '=', caller.sessionId).executeTakeFirst();
      return { role: caller.role, companyId: caller.companyId, companyName: company.name, userName: user?.name ?? null, expiresAt: session?.expires_at ?? null };
    },

    listUsers: (caller: Caller) => listUsers(caller.companyId),

    async createUser(caller: Caller, input: { name: string; password: string }): Promise<User> {
      if (await findUserByName(caller.companyId, input.name)) throw badRequest(`A packer named ${input.name} already exists`);
      const row = await db
        .insertInto('users')
        .values({ company_id: caller.companyId, name: input.name, password_hash: await hashPassword(input.password), created_at: clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      usersChanged(caller.companyId);
      return describeUser(caller.companyId, row.id);
    },

    /** A new password ends the packer's sessions: whoever knew the old one is out. */
    async setPassword(caller: Caller, input: { userId: number; password: string }): Promise<User> {
      const user = await findUser(caller.companyId, input.userId);
      await db.updateTable('users').set({ password_hash: await hashPassword(input.password) }).where('id', '=', user.id).execute();
      await revoke({ userId: user.id });
      usersChanged(caller.companyId);
      return describeUser(caller.companyId, user.id);
    },

    async removeUser(caller: Caller, input: { userId: number }) {
      const user = await findUser(caller.companyId, input.userId);
      await revoke({ userId: user.id });
      await db.deleteFrom('users').where('id', '=', user.id).execute();
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
