import type { OpenedPostgres } from '../postgres';
import type { PostalBatchesStore } from './postal-batches-store';
import { createSqlitePostalBatchesStore } from './sqlite';

/** PostgreSQL's postal-batches store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresPostalBatchesStore = (opened: OpenedPostgres): PostalBatchesStore => createSqlitePostalBatchesStore(opened);
