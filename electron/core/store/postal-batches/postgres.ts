import { advisoryTransactionLock, type OpenedPostgres } from '../postgres';
import type { PostalBatchesStore } from './postal-batches-store';
import { createSqlitePostalBatchesStore } from './sqlite';

/**
 * PostgreSQL's postal-batches store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect,
 * with keeping a service's batches under an advisory lock (two at once would both find no batch of a name and both add it).
 */
export const createPostgresPostalBatchesStore = (opened: OpenedPostgres): PostalBatchesStore => createSqlitePostalBatchesStore(opened, advisoryTransactionLock);
