import { kyselyOnly, type OpenedPostgres } from '../postgres';
import type { CourierCallsStore } from './courier-calls-store';
import { createSqliteCourierCallsStore } from './sqlite';

/** PostgreSQL's courier-calls store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresCourierCallsStore = (opened: OpenedPostgres): CourierCallsStore => createSqliteCourierCallsStore(kyselyOnly(opened));
