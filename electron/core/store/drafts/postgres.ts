import type { OpenedPostgres } from '../postgres';
import type { DraftsStore } from './drafts-store';
import { createSqliteDraftsStore } from './sqlite';

/** PostgreSQL's drafts store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresDraftsStore = (opened: OpenedPostgres): DraftsStore => createSqliteDraftsStore(opened);
