import { advisoryTransactionLock, kyselyOnly, type OpenedPostgres } from '../postgres';
import { claimDueCalls } from './claim-due-calls';
import { createSqliteWebhooksStore } from './sqlite';
import type { WebhooksStore } from './webhooks-store';

/**
 * PostgreSQL's webhooks store: the SQLite store's queries are Kysely's, engine-neutral, run here over PostgresDialect
 * (the deliveries of a status come from the schema's trigger on order_statuses in both engines), with adding a webhook
 * under an advisory lock per company (two at once would both count below the limit), and the due calls claimed with
 * their rows locked (FOR UPDATE SKIP LOCKED): several instances on the database send each call once.
 */
export const createPostgresWebhooksStore = (opened: OpenedPostgres): WebhooksStore => ({
  ...createSqliteWebhooksStore(kyselyOnly(opened), advisoryTransactionLock),
  claimDueCalls: (now, limit, retryDelays, leaseMs) => claimDueCalls(opened.db, true, now, limit, retryDelays, leaseMs),
});
