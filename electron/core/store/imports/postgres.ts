import type { OpenedPostgres } from '../postgres';
import type { ImportsStore } from './imports-store';
import { createSqliteImportsStore } from './sqlite';

/** PostgreSQL's imports store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresImportsStore = (opened: OpenedPostgres): ImportsStore => createSqliteImportsStore(opened);
