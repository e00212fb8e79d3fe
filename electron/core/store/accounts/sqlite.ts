import type { Selectable } from 'kysely';
import type { Db, OpenedDatabase, TransactionLock } from '../database';
import type { CompaniesTable, SenderProfilesTable, SessionsTable, UsersTable } from '../schema';
import { readJsonColumn } from '../json-column';
import { isUniqueViolation } from '../storage-errors';
import type { AccountsStore, Company, Packer, Session, StoredSenderProfile } from './accounts-store';

const toCompany = (r: Selectable<CompaniesTable>): Company => ({ id: r.id, name: r.name, apiToken: r.api_token, isDesktop: r.is_desktop === 1 });

const toSenderProfile = (r: Selectable<SenderProfilesTable>): StoredSenderProfile => ({
  id: r.id,
  name: r.name,
  sender: JSON.parse(r.sender),
  isDefault: r.is_default === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toPacker = (r: Selectable<UsersTable>): Packer => ({ id: r.id, companyId: r.company_id, name: r.name, passwordHash: r.password_hash, createdAt: r.created_at });

const toSession = (r: Selectable<SessionsTable>): Session => ({
  id: r.id,
  role: r.role,
  companyId: r.company_id,
  userId: r.user_id,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

/** `lock`: taken per company in every sender-profile write, so that a company keeps exactly one default (see TransactionLock). */
export function createSqliteAccountsStore({ db }: Pick<OpenedDatabase, 'db'>, lock?: TransactionLock): AccountsStore {
  const lockSenderProfiles = (trx: Db, companyId: number) => lock?.(trx, `sender-profiles:${companyId}`);

  const companyWhere = (column: 'id' | 'api_token' | 'is_desktop', value: number | string) =>
    db.selectFrom('companies').selectAll().where(column, '=', value).executeTakeFirst().then((r) => r && toCompany(r));

  return {
    company: (id) => companyWhere('id', id),
    companyByToken: (apiToken) => companyWhere('api_token', apiToken),
    desktopCompany: () => companyWhere('is_desktop', 1),

    async createCompany(company) {
      const row = await db
        .insertInto('companies')
        .values({ name: company.name, api_token: company.apiToken, is_desktop: company.isDesktop ? 1 : 0, created_at: company.createdAt })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toCompany(row);
    },

    async setApiToken(companyId, apiToken) {
      await db.updateTable('companies').set({ api_token: apiToken }).where('id', '=', companyId).execute();
    },

    async companyDetails(companyId) {
      const row = await db.selectFrom('company_settings').select('details').where('company_id', '=', companyId).executeTakeFirst();
      const details = readJsonColumn(row?.details);
      return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
    },

    async saveCompanyDetails(companyId, { name, details, at }) {
      const text = JSON.stringify(details);
      await db.transaction().execute(async (trx) => {
        if (name !== undefined) await trx.updateTable('companies').set({ name }).where('id', '=', companyId).execute();
        await trx
          .insertInto('company_settings')
          .values({ company_id: companyId, details: text, updated_at: at })
          .onConflict((oc) => oc.column('company_id').doUpdateSet({ details: text, updated_at: at }))
          .execute();
      });
    },

    async senderProfiles(companyId) {
      const rows = await db.selectFrom('sender_profiles').selectAll().where('company_id', '=', companyId).orderBy('is_default', 'desc').orderBy('id').execute();
      return rows.map(toSenderProfile);
    },

    async senderProfile(companyId, id) {
      const row = await db.selectFrom('sender_profiles').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row && toSenderProfile(row);
    },

    createSenderProfile: (companyId, profile) =>
      db.transaction().execute(async (trx) => {
        await lockSenderProfiles(trx, companyId);
        const current = await trx.selectFrom('sender_profiles').select('id').where('company_id', '=', companyId).where('is_default', '=', 1).executeTakeFirst();
        const makeDefault = !current || profile.isDefault === true;
        if (makeDefault && current) await trx.updateTable('sender_profiles').set({ is_default: 0 }).where('id', '=', current.id).execute();
        const row = await trx
          .insertInto('sender_profiles')
          .values({
            company_id: companyId, name: profile.name, sender: JSON.stringify(profile.sender), is_default: makeDefault ? 1 : 0, created_at: profile.at, updated_at: profile.at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      }),

    async updateSenderProfile(companyId, id, change) {
      await db.transaction().execute(async (trx) => {
        await lockSenderProfiles(trx, companyId);
        if (change.isDefault === true) {
          await trx.updateTable('sender_profiles').set({ is_default: 0 }).where('company_id', '=', companyId).where('id', '!=', id).execute();
        }
        await trx
          .updateTable('sender_profiles')
          .set({
            updated_at: change.at,
            ...(change.name !== undefined ? { name: change.name } : {}),
            ...(change.sender !== undefined ? { sender: JSON.stringify(change.sender) } : {}),
            ...(change.isDefault === true ? { is_default: 1 } : {}),
          })
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .execute();
      });
    },

    async deleteSenderProfile(companyId, id) {
      await db.transaction().execute(async (trx) => {
        await lockSenderProfiles(trx, companyId);
        const removed = await trx.deleteFrom('sender_profiles').where('company_id', '=', companyId).where('id', '=', id).returning('is_default').executeTakeFirst();
        if (removed?.is_default !== 1) return;
        const oldest = await trx.selectFrom('sender_profiles').select('id').where('company_id', '=', companyId).orderBy('id').executeTakeFirst();
        if (oldest) await trx.updateTable('sender_profiles').set({ is_default: 1 }).where('id', '=', oldest.id).execute();
      });
    },

    async appSetting(key) {
      const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
      return readJsonColumn(row?.value);
    },

    async saveAppSetting(key, value, at) {
      const text = JSON.stringify(value);
      await db
        .insertInto('app_settings')
        .values({ key, value: text, updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: at }))
        .execute();
    },

    async apiLoginOf(companyId) {
      const row = await db.selectFrom('api_logins').select('login').where('company_id', '=', companyId).executeTakeFirst();
      return row?.login ?? null;
    },

    async apiLogin(login) {
      const row = await db
        .selectFrom('api_logins')
        .innerJoin('companies', 'companies.id', 'api_logins.company_id')
        .select(['api_logins.company_id', 'api_logins.login', 'api_logins.password_hash', 'companies.api_token'])
        .where('api_logins.login', '=', login)
        .executeTakeFirst();
      return row && { companyId: row.company_id, login: row.login, passwordHash: row.password_hash, apiToken: row.api_token };
    },

    async saveApiLogin(companyId, { login, passwordHash, at }) {
      const row = { login, password_hash: passwordHash, updated_at: at };
      try {
        await db
          .insertInto('api_logins')
          .values({ company_id: companyId, ...row })
          .onConflict((oc) => oc.column('company_id').doUpdateSet(row))
          .execute();
        return 'saved';
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    async clearApiLogin(companyId) {
      await db.deleteFrom('api_logins').where('company_id', '=', companyId).execute();
    },

    async packers(companyId) {
      return (await db.selectFrom('users').selectAll().where('company_id', '=', companyId).orderBy('id').execute()).map(toPacker);
    },

    async packer(companyId, userId) {
      const row = await db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('id', '=', userId).executeTakeFirst();
      return row && toPacker(row);
    },

    async packerName(userId) {
      return (await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst())?.name;
    },

    async packerSummaries(companyId, now) {
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
      const last = new Map(lastSignIns.map((r) => [r.user_id, Number(r.at)]));
      return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, activeSessions: Number(r.active), lastSignInAt: last.get(r.id) ?? null }));
    },

    async createPacker(companyId, { name, passwordHash, at }) {
      try {
        const row = await db
          .insertInto('users')
          .values({ company_id: companyId, name, password_hash: passwordHash, created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    async setPackerPassword(userId, passwordHash) {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },

    async deletePacker(userId) {
      await db.deleteFrom('users').where('id', '=', userId).execute(); // their sessions go with them (ON DELETE CASCADE)
    },

    async openSession(session) {
      const row = await db
        .insertInto('sessions')
        .values({
          secret_hash: session.secretHash, role: session.role, company_id: session.companyId, user_id: session.userId,
          created_at: session.at, last_seen_at: session.at, expires_at: session.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async sessionBySecretHash(secretHash) {
      const row = await db.selectFrom('sessions').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
      return row && toSession(row);
    },

    async session(id) {
      const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },

    async touchSession(id, at) {
      await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async revokeSessions(which, at) {
      let q = db.updateTable('sessions').set({ revoked_at: at }).where('revoked_at', 'is', null);
      if (which.sessionId !== undefined) q = q.where('id', '=', which.sessionId);
      if (which.userId !== undefined) q = q.where('user_id', '=', which.userId);
      if (which.role !== undefined) q = q.where('role', '=', which.role);
      const rows = await q.returning(['id', 'company_id']).execute();
      return rows.map((r) => ({ id: r.id, companyId: r.company_id }));
    },
  };
}
