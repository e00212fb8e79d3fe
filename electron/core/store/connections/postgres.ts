import type { OpenedPostgres } from '../postgres';
import type { ConnectionsStore } from './connections-store';
import { createSqliteConnectionsStore } from './sqlite';

/** PostgreSQL's connections store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresConnectionsStore = (opened: OpenedPostgres): ConnectionsStore => createSqliteConnectionsStore(opened);
