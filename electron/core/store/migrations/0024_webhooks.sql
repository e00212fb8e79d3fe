-- Status webhooks of a company (GET/POST/DELETE /webhooks): ShipDesk calls the shop's site when an order's
-- status changes, signing each call with the webhook's own secret (HMAC-SHA256 of the body).
CREATE TABLE webhooks (
  id          INTEGER PRIMARY KEY,
  uuid        TEXT    NOT NULL UNIQUE,
  company_id  INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  type        TEXT    NOT NULL CHECK (type IN ('ORDER_STATUS')),
  url         TEXT    NOT NULL,
  secret      TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  UNIQUE (company_id, type, url)
);

-- One call to make: a status of one order for one webhook. Written by the trigger below in the very
-- transaction that records the status, whichever part of ShipDesk records it, so a crash or a restart
-- loses no call; it stays 'pending' until the site answers 2xx or the attempts run out.
CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY,
  webhook_id      INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  status_id       INTEGER NOT NULL,
  state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  -- 0: due at once (the trigger cannot read the app's clock).
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  finished_at     INTEGER,
  CHECK ((state = 'pending') = (finished_at IS NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);

-- Every attempt of a call, with what the site answered (an HTTP status) or why there was no answer.
CREATE TABLE webhook_attempts (
  id           INTEGER PRIMARY KEY,
  delivery_id  INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  webhook_id   INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  at           INTEGER NOT NULL,
  http_status  INTEGER,
  error        TEXT,
  CHECK (http_status IS NOT NULL OR error IS NOT NULL)
);
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (webhook_id, id);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id);

CREATE TRIGGER webhook_deliveries_of_status AFTER INSERT ON order_statuses BEGIN
  INSERT INTO webhook_deliveries (webhook_id, status_id)
  SELECT id, NEW.id FROM webhooks WHERE company_id = NEW.company_id AND type = 'ORDER_STATUS';
END;
