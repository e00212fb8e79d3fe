import type { Generated } from 'kysely';

/** Table types for Kysely. Times are epoch milliseconds; money is integer kopecks. */
export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  api_token: string;
  is_desktop: number;
  created_at: number;
}

export interface OrdersTable {
  id: Generated<number>;
  company_id: number;
  client_number: string;
  provider_key: string;
  provider_connect_id: number | null;
  state: 'active' | 'canceled' | 'deleted';
  status_key: string;
  status_description: string | null;
  status_changed_at: number;
  provider_number: string | null;
  additional_provider_number: string | null;
  return_provider_number: string | null;
  barcode: string | null;
  tracking_url: string | null;
  recipient_name: string;
  recipient_phone: string;
  recipient_city: string | null;
  cod_kopecks: number;
  assessed_kopecks: number;
  payload: string;
  created_at: number;
  updated_at: number;
  canceled_at: number | null;
  deleted_at: number | null;
}

export interface OrderStatusesTable {
  id: Generated<number>;
  order_id: number;
  company_id: number;
  key: string;
  description: string | null;
  created_at: number;
  provider_code: string | null;
  provider_name: string | null;
  provider_description: string | null;
  created_provider: number | null;
  error_code: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  order_id: number;
  action: 'create' | 'update' | 'cancel' | 'delete';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
}

export interface SandboxShipmentsTable {
  provider_number: string;
  provider_key: string;
  company_id: number;
  client_number: string;
  payload: string;
  registered_at: number;
  canceled_at: number | null;
  removed_at: number | null;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

export interface Schema {
  companies: CompaniesTable;
  orders: OrdersTable;
  order_statuses: OrderStatusesTable;
  outbox: OutboxTable;
  sandbox_shipments: SandboxShipmentsTable;
  schema_migrations: SchemaMigrationsTable;
}
