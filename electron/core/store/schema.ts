import type { ColumnType, Generated } from 'kysely';

/** Table types for Kysely. Times are epoch milliseconds; money is integer kopecks. */
export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  api_token: string;
  is_desktop: number;
  created_at: number;
}

export interface ApiLoginsTable {
  company_id: number;
  login: string;
  password_hash: string;
  updated_at: number;
}

export interface WebhooksTable {
  id: Generated<number>;
  uuid: string;
  company_id: number;
  type: 'ORDER_STATUS';
  url: string;
  secret: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  status_id: number;
  state: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | 'delivered' | 'failed' | undefined>;
  attempts: ColumnType<number, number | undefined>;
  next_attempt_at: ColumnType<number, number | undefined>;
  finished_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  webhook_id: number;
  at: number;
  http_status: number | null;
  error: string | null;
  /** `error` as data (shared/messages), JSON. */
  error_message: string | null;
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
  /** The description as a message (JSON { key, params }, shared/messages) for the window; null: plain text. */
  status_description_message: string | null;
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
  /** JSON { itemKey: quantity } of a partial delivery (0003); optional on insert. */
  quantity_delivered: ColumnType<string | null, string | null | undefined, string | null>;
  /** The handover that took the order to its delivery service (0018); null: not handed over yet. */
  handover_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The status_changed_at at which the shop marked the order's problem seen (0023); null: not seen. */
  attention_seen_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The payload's cost.quotedDeliveryCost in kopecks (0046); null when it names none. */
  quoted_delivery_kopecks: ColumnType<number | null, number | null | undefined, number | null>;
  /** The payload's cost.deliveryCost in kopecks (0046); null when it names none. */
  delivery_kopecks: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One handover of parcels to one delivery service (0018). */
export interface HandoversTable {
  id: Generated<number>;
  company_id: number;
  provider_key: string;
  number: string;
  handed_at: number;
  orders: number;
  places: number;
  weight_grams: number;
}

export interface PostalBatchesTable {
  id: Generated<number>;
  company_id: number;
  provider_key: string;
  provider_connect_id: number | null;
  name: string;
  mail_type: string;
  mail_category: string | null;
  sending_date: string;
  created_at: number;
  checked_in_at: number | null;
}

export interface PostalBatchOrdersTable {
  order_id: number;
  batch_id: number;
}

export interface OrderStatusesTable {
  id: Generated<number>;
  order_id: number;
  company_id: number;
  key: string;
  description: string | null;
  /** The description as a message (JSON { key, params }, shared/messages); null: the service's or plain text. */
  description_message: string | null;
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
  /** The last error as a message (JSON { key, params }, shared/messages) for the window. */
  last_error_message: string | null;
  created_at: number;
  /** The instance (its outbox) whose lease the job is under, and until when (0022, renamed in 0049); null: free to claim. */
  lease_holder: ColumnType<string | null, string | null | undefined, string | null>;
  lease_until: ColumnType<number | null, number | null | undefined, number | null>;
  /** Failures counted against the attempt limit (0022). */
  failed_attempts: ColumnType<number, number | undefined, number>;
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
  /** Last update of the shipment's data (0003); optional on insert. */
  updated_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

/** Connections to delivery services (0007): id is the providerConnectId; credentials encrypted by the SecretBox. */
export interface ProviderConnectionsTable {
  id: Generated<number>;
  provider_key: string;
  name: string;
  test_mode: number;
  base_url: string | null;
  credentials: string | null;
  /** The kind's non-secret settings, JSON by field name (0021). */
  settings: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** Services of an upstream aggregator connection (0008), as its /lists/providers last said. */
export interface UpstreamServicesTable {
  connection_id: number;
  remote_key: string;
  name: string;
  description: string;
  test: number;
  /** JSON of the capabilities record. */
  capabilities: string;
  position: number;
  listed: number;
  synced_at: number;
}

export interface ProviderSyncStateTable {
  provider_key: string;
  what: string;
  synced_at: number | null;
  attempted_at: number | null;
  total: number | null;
  last_error: string | null;
}

/** Reference data (0002): rows carry the dataset they were loaded from; see migrations/0002_reference_data.sql. */
export interface ReferenceDataTable {
  dataset: string;
  version: string;
  row_count: number;
  loaded_at: number;
}

export interface PointsTable {
  id: number;
  source: string;
  provider_key: string;
  code: string;
  name: string;
  post_index: string | null;
  street_type: string | null;
  description: string | null;
  lat: number | null;
  lng: number | null;
  country_code: string;
  region: string | null;
  city: string;
  community: string | null;
  street: string | null;
  house: string | null;
  block: string | null;
  office: string | null;
  address: string;
  phone: string | null;
  timetable: string | null;
  /** JSON of the wire worktime. */
  worktime: string;
  fitting_room: number | null;
  cod: number | null;
  payment_cash: number | null;
  payment_card: number | null;
  available_operation: number;
  type: number;
  max_size_a: number | null;
  max_size_b: number | null;
  max_size_c: number | null;
  max_size_sum: number | null;
  min_weight: number | null;
  max_weight: number | null;
  /** Kopecks. */
  max_cod: number | null;
  enabled: number;
  city_fold: string;
  community_fold: string | null;
  search_text: string;
}

export interface TariffsTable {
  id: number;
  source: string;
  provider_key: string;
  name: string;
  description: string | null;
  alias_name: string | null;
  weight_min: number | null;
  weight_max: number | null;
  pickup_type: number | null;
  delivery_type: number | null;
  payment_cash: number;
}

export interface ProviderServicesTable {
  provider_key: string;
  extra_param_name: string;
  source: string;
  position: number;
  name: string;
  value_type: string;
  description: string;
}

/** Spreadsheet imports (0005); source and errors_file are the xlsx bytes. */
export interface ImportsTable {
  id: Generated<number>;
  company_id: number;
  origin: 'api' | 'desktop';
  mode: 'sync' | 'async';
  status: 'staged' | 'queued' | 'reading' | 'creating' | 'registering' | 'done' | 'failed' | 'canceled';
  file_name: string | null;
  file_size: number;
  /** Old imports only: the file is kept in the data folder now (source_path). */
  source: Buffer | null;
  /** 0014: the file, relative to the data folder (imports/<company>/<import>.xlsx). */
  source_path: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0014: the run puts its orders in drafts (the wizard's target). */
  as_drafts: ColumnType<number, number | undefined, number>;
  settings: string | null;
  errors_to_file: number;
  /** 0047: the language of the window that started the run (its errors file's); null: the app's setting. */
  language: ColumnType<'ru' | 'en' | null, 'ru' | 'en' | null | undefined, 'ru' | 'en' | null>;
  total: number;
  done: number;
  created: number;
  failed: number;
  error: string | null;
  /** Old imports only: the errors file is kept in the data folder now, beside the source. */
  errors_file: Buffer | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** One order of an import (0005): the order it became, or the JSON of why not. */
export interface ImportRowsTable {
  import_id: number;
  seq: number;
  row: number;
  last_row: number;
  client_number: string;
  order_id: number | null;
  created_at: number | null;
  error: string | null;
  /** 0011: the draft the order became (an import into drafts). */
  draft_id: string | null;
}

/** Column-mapping presets of the import wizard (0011): settings and header row as JSON. */
export interface ImportPresetsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  settings: string;
  headers: string;
  created_at: number;
  updated_at: number;
}

/** Order drafts (0006): the form JSON as it was typed, with the fields the list shows. */
export interface DraftsTable {
  company_id: number;
  id: string;
  data: string;
  client_number: string | null;
  recipient: string | null;
  provider_key: string | null;
  created_at: number;
  updated_at: number;
}

/** Company details (0006), JSON of shared/schemas/settings companyDetailsSchema. */
export interface CompanySettingsTable {
  company_id: number;
  details: string;
  updated_at: number;
}

/** Sender profiles (0006); sender is the JSON of an order's sender address. */
export interface SenderProfilesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  sender: string;
  is_default: number;
  created_at: number;
  updated_at: number;
}

/** App-wide settings (0006): key → JSON value. */
export interface AppSettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

/** The office a company usually brings a service's parcels to (0025): the order form's pointInId. */
export interface UsualDropOffPointsTable {
  company_id: number;
  provider_key: string;
  point_id: number;
  updated_at: number;
}

/** Courier calls asked of delivery services (0016); request and order_ids are JSON. */
export interface CourierCallsTable {
  id: Generated<number>;
  company_id: number;
  provider_key: string;
  provider_connect_id: number | null;
  date: string;
  time_start: string;
  time_end: string;
  request: string;
  order_ids: string;
  state: 'accepted' | 'refused' | 'failed' | 'canceled';
  provider_number: string | null;
  additional_provider_number: string | null;
  error: string | null;
  /** `error` as data (shared/messages), JSON, when the words are ours. */
  error_message: string | null;
  created_at: number;
  canceled_at: number | null;
}

/** Status refreshes that ran (0006); company_id null = every company. */
export interface RefreshRunsTable {
  id: Generated<number>;
  company_id: number | null;
  trigger: 'schedule' | 'manual';
  started_at: number;
  finished_at: number;
  checked: number;
  changed: number;
  statuses: number;
  failed: number;
  error: string | null;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  password_hash: string;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  secret_hash: string;
  role: 'owner' | 'packer';
  company_id: number;
  user_id: number | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface Schema {
  companies: CompaniesTable;
  api_logins: ApiLoginsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  orders: OrdersTable;
  order_statuses: OrderStatusesTable;
  outbox: OutboxTable;
  sandbox_shipments: SandboxShipmentsTable;
  schema_migrations: SchemaMigrationsTable;
  reference_data: ReferenceDataTable;
  points: PointsTable;
  tariffs: TariffsTable;
  provider_services: ProviderServicesTable;
  provider_connections: ProviderConnectionsTable;
  provider_sync_state: ProviderSyncStateTable;
  upstream_services: UpstreamServicesTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  import_presets: ImportPresetsTable;
  drafts: DraftsTable;
  company_settings: CompanySettingsTable;
  sender_profiles: SenderProfilesTable;
  app_settings: AppSettingsTable;
  refresh_runs: RefreshRunsTable;
  usual_drop_off_points: UsualDropOffPointsTable;
  handovers: HandoversTable;
  postal_batches: PostalBatchesTable;
  postal_batch_orders: PostalBatchOrdersTable;
  courier_calls: CourierCallsTable;
  users: UsersTable;
  sessions: SessionsTable;
}
