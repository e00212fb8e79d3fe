import type { AccountsStore } from './accounts/accounts-store';
import { createSqliteAccountsStore } from './accounts/sqlite';
import type { CourierCallsStore } from './courier-calls/courier-calls-store';
import { createSqliteCourierCallsStore } from './courier-calls/sqlite';
import type { BackupsStore } from './backups/backups-store';
import { createSqliteBackupsStore } from './backups/sqlite';
import { openDatabase, type OpenDatabaseOptions, type OpenedDatabase } from './database';
import type { DraftsStore } from './drafts/drafts-store';
import type { PostalBatchesStore } from './postal-batches/postal-batches-store';
import { createSqlitePostalBatchesStore } from './postal-batches/sqlite';
import { createSqliteDraftsStore } from './drafts/sqlite';
import type { ImportsStore } from './imports/imports-store';
import { createSqliteImportsStore } from './imports/sqlite';
import type { OrdersStore } from './orders/orders-store';
import { createSqliteOrdersStore } from './orders/sqlite';
import { createSqliteWebhooksStore } from './webhooks/sqlite';
import type { WebhooksStore } from './webhooks/webhooks-store';
import type { ConnectionsStore } from './connections/connections-store';
import { createSqliteConnectionsStore } from './connections/sqlite';
import type { ReferenceStore } from './reference/reference-store';
import { createSqliteReferenceStore } from './reference/sqlite';
import type { SandboxStore } from './sandbox/sandbox-store';
import { createSqliteSandboxStore } from './sandbox/sqlite';
import { kyselyOnly, openPostgres, type OpenedPostgres } from './postgres';
import { createPostgresAccountsStore } from './accounts/postgres';
import { createPostgresBackupsStore } from './backups/postgres';
import { createPostgresConnectionsStore } from './connections/postgres';
import { createPostgresCourierCallsStore } from './courier-calls/postgres';
import { createPostgresDraftsStore } from './drafts/postgres';
import { createPostgresImportsStore } from './imports/postgres';
import { createPostgresOrdersStore } from './orders/postgres';
import { createPostgresPostalBatchesStore } from './postal-batches/postgres';
import { createPostgresReferenceStore } from './reference/postgres';
import { createPostgresSandboxStore } from './sandbox/postgres';
import { createPostgresWebhooksStore } from './webhooks/postgres';
import type { InstancesStore } from './instances/instances-store';
import { createPostgresInstancesStore } from './instances/postgres';
import { createSqliteInstancesStore } from './instances/sqlite';

/**
 * Every aggregate's store: what services are built from (app.ts). One implementation per engine: SQLite's
 * `openSqliteStores`, PostgreSQL's `openPostgresStores`.
 */
export interface Stores {
  accounts: AccountsStore;
  courierCalls: CourierCallsStore;
  webhooks: WebhooksStore;
  backups: BackupsStore;
  drafts: DraftsStore;
  imports: ImportsStore;
  postalBatches: PostalBatchesStore;
  reference: ReferenceStore;
  connections: ConnectionsStore;
  sandbox: SandboxStore;
  orders: OrdersStore;
  /** The other ShipDesk instances on the database: periodic work run by one at a time, broadcasts between them. */
  instances: InstancesStore;
}

export function openSqliteStores(opened: OpenedDatabase): Stores {
  return {
    accounts: createSqliteAccountsStore(opened),
    courierCalls: createSqliteCourierCallsStore(opened),
    webhooks: createSqliteWebhooksStore(opened),
    backups: createSqliteBackupsStore(opened),
    drafts: createSqliteDraftsStore(opened),
    imports: createSqliteImportsStore(opened),
    postalBatches: createSqlitePostalBatchesStore(opened),
    reference: createSqliteReferenceStore(opened),
    connections: createSqliteConnectionsStore(opened),
    sandbox: createSqliteSandboxStore(opened),
    orders: createSqliteOrdersStore(opened),
    instances: createSqliteInstancesStore(),
  };
}

export function openPostgresStores(opened: OpenedPostgres): Stores {
  return {
    accounts: createPostgresAccountsStore(opened),
    courierCalls: createPostgresCourierCallsStore(opened),
    webhooks: createPostgresWebhooksStore(opened),
    backups: createPostgresBackupsStore(opened),
    drafts: createPostgresDraftsStore(opened),
    imports: createPostgresImportsStore(opened),
    postalBatches: createPostgresPostalBatchesStore(opened),
    reference: createPostgresReferenceStore(opened),
    connections: createPostgresConnectionsStore(opened),
    sandbox: createPostgresSandboxStore(opened),
    orders: createPostgresOrdersStore(opened),
    instances: createPostgresInstancesStore(opened),
  };
}

/** Where the app keeps its data: a PostgreSQL server (`postgres`: its URL), or a SQLite file. */
export type StoresAt = { postgres: string; now?: number } | OpenDatabaseOptions;

/**
 * The database and every store on it, PostgreSQL's or SQLite's (app.ts builds the services from them). On PostgreSQL
 * `opened.sqlite` refuses at once: a module still handed the raw SQLite connection fails plainly there.
 */
export async function openStores(at: StoresAt): Promise<{ opened: OpenedDatabase; stores: Stores }> {
  if ('postgres' in at) {
    const postgres = await openPostgres({ url: at.postgres, now: at.now });
    return { opened: kyselyOnly(postgres), stores: openPostgresStores(postgres) };
  }
  const opened = openDatabase(at);
  return { opened, stores: openSqliteStores(opened) };
}
