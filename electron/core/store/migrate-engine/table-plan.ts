import type { Schema } from '../schema';

/** What the copy does with one table of the schema: copies its rows, or leaves it with the reason. */
export type TablePlan = { copy: true } | { skip: string };

/**
 * Every table of `Schema` (store/schema.ts), by name: the compiler refuses a table added there and not here, and
 * table-plan.test.ts refuses a table either engine has that is neither here nor in `engineOnlyTables`.
 * The copy's order comes from the target's foreign keys (copy.ts), not from this list.
 */
export const tablePlan: Record<keyof Schema, TablePlan> = {
  companies: { copy: true },
  api_logins: { copy: true },
  users: { copy: true },
  sessions: { copy: true },
  company_settings: { copy: true },
  sender_profiles: { copy: true },
  app_settings: { copy: true },
  provider_connections: { copy: true },
  provider_sync_state: { copy: true },
  upstream_services: { copy: true },
  orders: { copy: true },
  order_statuses: { copy: true },
  outbox: { copy: true },
  handovers: { copy: true },
  postal_batches: { copy: true },
  postal_batch_orders: { copy: true },
  courier_calls: { copy: true },
  sandbox_shipments: { copy: true },
  imports: { copy: true },
  import_rows: { copy: true },
  import_presets: { copy: true },
  drafts: { copy: true },
  reference_data: { copy: true },
  points: { copy: true },
  tariffs: { copy: true },
  provider_services: { copy: true },
  usual_drop_off_points: { copy: true },
  refresh_runs: { copy: true },
  webhooks: { copy: true },
  webhook_deliveries: { copy: true },
  webhook_attempts: { copy: true },
  schema_migrations: { skip: 'each engine records its own migrations; the copy checks both are at the same version instead' },
};

/** Tables one engine keeps beside the schema's, which the other engine's own mechanism fills (never copied). */
export const engineOnlyTables: Record<'sqlite' | 'postgres', Record<string, string>> = {
  sqlite: {
    orders_search: "SQLite's FTS5 index of the orders (and its shadow tables): PostgreSQL searches orders through its pg_trgm index",
    orders_search_numbers: "SQLite's FTS5 index of the orders' service numbers (and its shadow tables), beside orders_search",
    orders_search_deferred: "the flag with which a SQLite write indexes its group of orders itself (migration 0050)",
  },
  postgres: { points_generation: "PostgreSQL's change counter of the points, kept by its trigger as the points are copied" },
};

/** The tables whose rows are copied, by name. */
export const copiedTables = (Object.keys(tablePlan) as (keyof Schema)[]).filter((name) => 'copy' in tablePlan[name]);
