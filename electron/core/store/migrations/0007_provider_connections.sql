-- Connections to delivery services: a shop may hold several accounts of one service, each is a
-- providerConnectId. Credentials are encrypted by the app's SecretBox (Electron safeStorage in the
-- desktop app, an AES-GCM key file in browser mode); NULL means the service's public test account.
CREATE TABLE provider_connections (
  id            INTEGER PRIMARY KEY,
  provider_key  TEXT    NOT NULL,
  name          TEXT    NOT NULL,
  test_mode     INTEGER NOT NULL DEFAULT 0 CHECK (test_mode IN (0, 1)),
  base_url      TEXT,
  credentials   TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX provider_connections_key ON provider_connections(provider_key, id);

-- When reference data of a connected service was last refreshed (CDEK offices: daily, into `points`
-- with source 'cdek'), and the last failure if any.
CREATE TABLE provider_sync_state (
  provider_key  TEXT    NOT NULL,
  what          TEXT    NOT NULL,
  synced_at     INTEGER,
  attempted_at  INTEGER,
  total         INTEGER,
  last_error    TEXT,
  PRIMARY KEY (provider_key, what)
);
