-- A courier call a service accepted may wait for its number: CDEK answers a new intake with a uuid only and
-- numbers it later. Such a call is kept by the service's reference (additional_provider_number) until then.
CREATE TABLE courier_calls_new (
  id                          INTEGER PRIMARY KEY,
  company_id                  INTEGER NOT NULL REFERENCES companies(id),
  provider_key                TEXT    NOT NULL,
  provider_connect_id         INTEGER,
  date                        TEXT    NOT NULL,
  time_start                  TEXT    NOT NULL,
  time_end                    TEXT    NOT NULL,
  request                     TEXT    NOT NULL,
  order_ids                   TEXT    NOT NULL DEFAULT '[]',
  state                       TEXT    NOT NULL CHECK (state IN ('accepted', 'refused', 'failed', 'canceled')),
  provider_number             TEXT,
  additional_provider_number  TEXT,
  error                       TEXT,
  created_at                  INTEGER NOT NULL,
  canceled_at                 INTEGER,
  CHECK ((state IN ('accepted', 'canceled')) = (coalesce(provider_number, additional_provider_number) IS NOT NULL)),
  CHECK ((state = 'canceled') = (canceled_at IS NOT NULL))
);
INSERT INTO courier_calls_new SELECT id, company_id, provider_key, provider_connect_id, date, time_start, time_end, request, order_ids,
  state, provider_number, additional_provider_number, error, created_at, canceled_at FROM courier_calls;
DROP TABLE courier_calls;
ALTER TABLE courier_calls_new RENAME TO courier_calls;
CREATE INDEX courier_calls_by_company ON courier_calls (company_id, id);
