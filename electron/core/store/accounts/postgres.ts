import { advisoryTransactionLock, type OpenedPostgres } from '../postgres';
import type { AccountsStore } from './accounts-store';
import { createSqliteAccountsStore } from './sqlite';

/**
 * PostgreSQL's accounts store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect,
 * with a company's sender-profile writes under an advisory lock (two at once would each keep their own default).
 */
export const createPostgresAccountsStore = (opened: OpenedPostgres): AccountsStore => createSqliteAccountsStore(opened, advisoryTransactionLock);
