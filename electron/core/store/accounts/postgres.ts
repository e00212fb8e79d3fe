import type { OpenedPostgres } from '../postgres';
import type { AccountsStore } from './accounts-store';
import { createSqliteAccountsStore } from './sqlite';

/** PostgreSQL's accounts store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresAccountsStore = (opened: OpenedPostgres): AccountsStore => createSqliteAccountsStore(opened);
