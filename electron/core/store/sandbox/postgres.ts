import type { OpenedPostgres } from '../postgres';
import type { SandboxStore } from './sandbox-store';
import { createSqliteSandboxStore } from './sqlite';

/** PostgreSQL's sandbox store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect. */
export const createPostgresSandboxStore = (opened: OpenedPostgres): SandboxStore => createSqliteSandboxStore(opened);
