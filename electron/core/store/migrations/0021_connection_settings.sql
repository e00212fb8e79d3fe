-- A connection's non-secret settings, as its kind declares them (providers/carrier-kind.ts): JSON by field
-- name, numbers kept as numbers. Secrets stay sealed in `credentials`.
ALTER TABLE provider_connections ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
