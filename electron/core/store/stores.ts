import type { AccountsStore } from './accounts/accounts-store';
import { createSqliteAccountsStore } from './accounts/sqlite';
import type { CourierCallsStore } from './courier-calls/courier-calls-store';
import { createSqliteCourierCallsStore } from './courier-calls/sqlite';
import type { OpenedDatabase } from './database';

/**
 * Every aggregate's store: what services are built from (app.ts). One implementation per engine; SQLite's is
 * `openSqliteStores`.
 */
export interface Stores {
  accounts: AccountsStore;
  courierCalls: CourierCallsStore;
}

export function openSqliteStores(opened: OpenedDatabase): Stores {
  return {
    accounts: createSqliteAccountsStore(opened),
    courierCalls: createSqliteCourierCallsStore(opened),
  };
}
