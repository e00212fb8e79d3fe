import type { Selectable } from 'kysely';
import type { ConnectionSettingValue } from '../../../../shared/contract/connections';
import type { OpenedDatabase } from '../database';
import type { ProviderConnectionsTable } from '../schema';
import type { ConnectionsStore, ConnectionValues, StoredConnection } from './connections-store';

function settingsOf(json: string): Record<string, ConnectionSettingValue> {
  try {
    return JSON.parse(json) as Record<string, ConnectionSettingValue>;
  } catch {
    return {}; // a damaged settings column leaves the kind's defaults
  }
}

const toConnection = (r: Selectable<ProviderConnectionsTable>): StoredConnection => ({
  id: r.id,
  providerKey: r.provider_key,
  name: r.name,
  testMode: r.test_mode === 1,
  baseUrl: r.base_url,
  credentials: r.credentials,
  settings: settingsOf(r.settings),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const columns = (v: ConnectionValues) => ({
  name: v.name,
  test_mode: v.testMode ? 1 : 0,
  base_url: v.baseUrl,
  credentials: v.credentials,
  settings: JSON.stringify(v.settings),
});

export function createSqliteConnectionsStore({ db }: Pick<OpenedDatabase, 'db'>): ConnectionsStore {
  return {
    async list() {
      return (await db.selectFrom('provider_connections').selectAll().orderBy('id').execute()).map(toConnection);
    },

    async get(id) {
      const row = await db.selectFrom('provider_connections').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toConnection(row) : null;
    },

    async defaultOf(providerKey) {
      const row = await db.selectFrom('provider_connections').select('id').where('provider_key', '=', providerKey).orderBy('id').executeTakeFirst();
      return row?.id ?? null;
    },

    async create(providerKey, values, now) {
      const { id } = await db
        .insertInto('provider_connections')
        .values({ provider_key: providerKey, ...columns(values), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async update(id, values, now) {
      await db.updateTable('provider_connections').set({ ...columns(values), updated_at: now }).where('id', '=', id).execute();
    },

    async delete(id) {
      await db.deleteFrom('provider_connections').where('id', '=', id).execute();
    },
  };
}
