-- Order lifecycle (update, cancel, delete through the outbox) and status tracking.

-- Items bought out on a partial delivery, as the delivery service reported them:
-- JSON { "<articul, or description when there is none>": quantity }. NULL until the service says.
ALTER TABLE orders ADD COLUMN quantity_delivered TEXT;

-- When the sandbox service last accepted new data for a shipment (its books, like a real service's).
ALTER TABLE sandbox_shipments ADD COLUMN updated_at INTEGER;

-- Outbox ids are never reused (AUTOINCREMENT): a job dropped while its call was out must not be
-- mistaken for a newer job that took its id when the late answer comes back.
CREATE TABLE outbox_new (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id         INTEGER NOT NULL REFERENCES orders(id),
  action           TEXT    NOT NULL CHECK (action IN ('create', 'update', 'cancel', 'delete')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  last_error       TEXT,
  created_at       INTEGER NOT NULL
);
INSERT INTO outbox_new (id, order_id, action, attempts, next_attempt_at, last_error, created_at)
  SELECT id, order_id, action, attempts, next_attempt_at, last_error, created_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(next_attempt_at);
-- The outbox runs the jobs of one order one at a time, oldest first.
CREATE INDEX outbox_order ON outbox(order_id, id);

-- A create waits for the older jobs of canceled/deleted orders that had the same clientNumber.
CREATE INDEX orders_company_client_number ON orders(company_id, client_number);

-- Orders that status tracking asks about: live and registered with their service.
CREATE INDEX orders_tracking ON orders(id) WHERE state = 'active' AND provider_number IS NOT NULL;

-- A status the delivery service reported is recorded once: the same key at the same service time is the same status.
CREATE UNIQUE INDEX order_statuses_provider_once ON order_statuses(order_id, key, created_provider) WHERE created_provider IS NOT NULL;
