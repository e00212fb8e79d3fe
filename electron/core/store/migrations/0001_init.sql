-- Companies are the clients of the local interface; each sees only its own orders.
CREATE TABLE companies (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL,
  api_token   TEXT    NOT NULL UNIQUE,
  is_desktop  INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL
);

-- One row per order. The normalized create payload is kept whole in `payload`; the columns beside it
-- are what lists, searches and the outbox need. Times are epoch milliseconds.
CREATE TABLE orders (
  id                          INTEGER PRIMARY KEY,
  company_id                  INTEGER NOT NULL REFERENCES companies(id),
  client_number               TEXT    NOT NULL,
  provider_key                TEXT    NOT NULL,
  provider_connect_id         INTEGER,
  state                       TEXT    NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'canceled', 'deleted')),
  status_key                  TEXT    NOT NULL,
  status_description          TEXT,
  status_changed_at           INTEGER NOT NULL,
  provider_number             TEXT,
  additional_provider_number  TEXT,
  return_provider_number      TEXT,
  barcode                     TEXT,
  tracking_url                TEXT,
  recipient_name              TEXT    NOT NULL,
  recipient_phone             TEXT    NOT NULL,
  recipient_city              TEXT,
  cod_kopecks                 INTEGER NOT NULL,
  assessed_kopecks            INTEGER NOT NULL,
  payload                     TEXT    NOT NULL,
  created_at                  INTEGER NOT NULL,
  updated_at                  INTEGER NOT NULL,
  canceled_at                 INTEGER,
  deleted_at                  INTEGER
);
-- clientNumber is unique per company among orders that are neither canceled nor deleted.
CREATE UNIQUE INDEX orders_live_client_number ON orders(company_id, client_number) WHERE state = 'active';
CREATE INDEX orders_company_newest ON orders(company_id, id DESC);
CREATE INDEX orders_company_status ON orders(company_id, status_key);
CREATE INDEX orders_provider_number ON orders(provider_key, provider_number);

-- Every status an order passed, newest last.
CREATE TABLE order_statuses (
  id                    INTEGER PRIMARY KEY,
  order_id              INTEGER NOT NULL REFERENCES orders(id),
  company_id            INTEGER NOT NULL REFERENCES companies(id),
  key                   TEXT    NOT NULL,
  description           TEXT,
  created_at            INTEGER NOT NULL,
  provider_code         TEXT,
  provider_name         TEXT,
  provider_description  TEXT,
  created_provider      INTEGER,
  error_code            TEXT
);
CREATE INDEX order_statuses_order ON order_statuses(order_id, id);
CREATE INDEX order_statuses_company_time ON order_statuses(company_id, created_at);

-- Work for the delivery services, written in the same transaction as the order and done after commit.
CREATE TABLE outbox (
  id               INTEGER PRIMARY KEY,
  order_id         INTEGER NOT NULL REFERENCES orders(id),
  action           TEXT    NOT NULL CHECK (action IN ('create', 'update', 'cancel', 'delete')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  last_error       TEXT,
  created_at       INTEGER NOT NULL
);
CREATE INDEX outbox_due ON outbox(next_attempt_at);

-- The built-in sandbox delivery services keep their own books here, as a real service would on its side.
CREATE TABLE sandbox_shipments (
  provider_number  TEXT    PRIMARY KEY,
  provider_key     TEXT    NOT NULL,
  company_id       INTEGER NOT NULL,
  client_number    TEXT    NOT NULL,
  payload          TEXT    NOT NULL,
  registered_at    INTEGER NOT NULL,
  canceled_at      INTEGER,
  removed_at       INTEGER
);
CREATE INDEX sandbox_shipments_client ON sandbox_shipments(provider_key, company_id, client_number);
