import { advisoryTransactionLock, type OpenedPostgres } from '../postgres';
import type { SandboxStore } from './sandbox-store';
import { createSqliteSandboxStore } from './sqlite';

/**
 * PostgreSQL's sandbox store: the SQLite store's Kysely queries, with a registration's numbering held under a
 * transaction-scoped advisory lock per prefix (its transactions run side by side, and two would read the same highest
 * number and collide on the key).
 */
export const createPostgresSandboxStore = (opened: OpenedPostgres): SandboxStore => createSqliteSandboxStore(opened, advisoryTransactionLock);
