-- The desktop window's own data: order drafts, settings, sender profiles and the status refresh log.

-- An order form saved as the user types: the partial, possibly invalid form JSON as it was, and the
-- few fields the drafts list shows. The id comes from the form (so two saves in flight name one draft).
CREATE TABLE drafts (
  company_id     INTEGER NOT NULL REFERENCES companies(id),
  id             TEXT    NOT NULL,
  data           TEXT    NOT NULL,
  client_number  TEXT,
  recipient      TEXT,
  provider_key   TEXT,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX drafts_company_newest ON drafts(company_id, updated_at DESC);

-- Company details (JSON of the settings schema) beside companies.name.
CREATE TABLE company_settings (
  company_id  INTEGER PRIMARY KEY REFERENCES companies(id),
  details     TEXT    NOT NULL,
  updated_at  INTEGER NOT NULL
);

-- Sender addresses the order form fills in; at most one default per company.
CREATE TABLE sender_profiles (
  id          INTEGER PRIMARY KEY,
  company_id  INTEGER NOT NULL REFERENCES companies(id),
  name        TEXT    NOT NULL,
  sender      TEXT    NOT NULL,
  is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX sender_profiles_company ON sender_profiles(company_id, id);
CREATE UNIQUE INDEX sender_profiles_one_default ON sender_profiles(company_id) WHERE is_default = 1;

-- Settings of the whole app (refresh interval, language, local API switch): key → JSON value.
CREATE TABLE app_settings (
  key         TEXT    PRIMARY KEY,
  value       TEXT    NOT NULL,
  updated_at  INTEGER NOT NULL
);

-- Status refreshes that ran: company_id NULL = every company (the scheduler).
CREATE TABLE refresh_runs (
  id           INTEGER PRIMARY KEY,
  company_id   INTEGER REFERENCES companies(id),
  trigger      TEXT    NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER NOT NULL,
  checked      INTEGER NOT NULL,
  changed      INTEGER NOT NULL,
  statuses     INTEGER NOT NULL,
  failed       INTEGER NOT NULL,
  error        TEXT
);
CREATE INDEX refresh_runs_newest ON refresh_runs(finished_at);

-- Stuck orders: live ones whose status has not moved for days.
CREATE INDEX orders_company_status_changed ON orders(company_id, status_changed_at) WHERE state = 'active';
