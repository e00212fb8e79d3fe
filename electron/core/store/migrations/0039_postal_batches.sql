-- Batches (партии) of a postal service whose orders get their tracking number only in a batch (Russian Post): one
-- row per batch the service formed for the shop, under the service's own name, at the account (connection) it was
-- formed at; checked_in_at once its Ф103 was sent. Each order is in at most one batch.
CREATE TABLE postal_batches (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  provider_key TEXT NOT NULL,
  provider_connect_id INTEGER,
  name TEXT NOT NULL,
  mail_type TEXT NOT NULL,
  mail_category TEXT,
  sending_date TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  checked_in_at INTEGER,
  UNIQUE (company_id, provider_key, provider_connect_id, name)
);

CREATE TABLE postal_batch_orders (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id),
  batch_id INTEGER NOT NULL REFERENCES postal_batches(id)
);

CREATE INDEX postal_batch_orders_batch ON postal_batch_orders(batch_id);
