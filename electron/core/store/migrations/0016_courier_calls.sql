-- Courier calls: a pickup asked of a delivery service for the shop's parcels (POST /courierCall, the app's
-- "Вызвать курьера"). Kept whatever the service answered, so the shop sees refused calls and why.
CREATE TABLE courier_calls (
  id                          INTEGER PRIMARY KEY,
  company_id                  INTEGER NOT NULL REFERENCES companies(id),
  provider_key                TEXT    NOT NULL,
  provider_connect_id         INTEGER,
  date                        TEXT    NOT NULL,
  time_start                  TEXT    NOT NULL,
  time_end                    TEXT    NOT NULL,
  -- The call as asked (address, contact, totals, comment, extraParams), JSON.
  request                     TEXT    NOT NULL,
  -- Our order ids the courier takes, JSON array.
  order_ids                   TEXT    NOT NULL DEFAULT '[]',
  state                       TEXT    NOT NULL CHECK (state IN ('accepted', 'refused', 'failed', 'canceled')),
  provider_number             TEXT,
  additional_provider_number  TEXT,
  error                       TEXT,
  created_at                  INTEGER NOT NULL,
  canceled_at                 INTEGER,
  CHECK ((state IN ('accepted', 'canceled')) = (provider_number IS NOT NULL)),
  CHECK ((state = 'canceled') = (canceled_at IS NOT NULL))
);
CREATE INDEX courier_calls_by_company ON courier_calls (company_id, id);
