-- Delivery services reached through an upstream aggregator (a connection with provider_key 'upstream':
-- a base URL and a token of a service that speaks the delivery interface, another ShipDesk included).
-- The upstream's /lists/providers as last synced, so its services stay known across restarts and while
-- the upstream is unreachable. They appear here as `upstream:<connection_id>:<remote_key>`.
-- A service the upstream stopped listing keeps its row with listed = 0: orders already made with it
-- still reach it, new ones cannot choose it.
CREATE TABLE upstream_services (
  connection_id  INTEGER NOT NULL REFERENCES provider_connections(id) ON DELETE CASCADE,
  remote_key     TEXT    NOT NULL,
  name           TEXT    NOT NULL,
  description    TEXT    NOT NULL,
  test           INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1)),
  -- JSON of the interface's capabilities record (what the upstream said, or ShipDesk's defaults).
  capabilities   TEXT    NOT NULL,
  position       INTEGER NOT NULL,
  listed         INTEGER NOT NULL DEFAULT 1 CHECK (listed IN (0, 1)),
  synced_at      INTEGER NOT NULL,
  PRIMARY KEY (connection_id, remote_key)
);
