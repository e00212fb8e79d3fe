-- Packers: people the owner lets in from another PC of the shop, by name and password.
-- password_hash is `scrypt$N$r$p$salt$hash` (electron/core/auth/passwords.ts); never the password itself.
CREATE TABLE users (
  id             INTEGER PRIMARY KEY,
  company_id     INTEGER NOT NULL REFERENCES companies(id),
  name           TEXT    NOT NULL COLLATE NOCASE,
  password_hash  TEXT    NOT NULL,
  created_at     INTEGER NOT NULL,
  UNIQUE (company_id, name)
);

-- Browser sessions (the owner's link, a packer's sign-in). Only the SHA-256 of the secret is kept, so a
-- copy of the database opens no session. A packer's ends at expires_at; any ends when revoked.
CREATE TABLE sessions (
  id            INTEGER PRIMARY KEY,
  secret_hash   TEXT    NOT NULL UNIQUE,
  role          TEXT    NOT NULL CHECK (role IN ('owner', 'packer')),
  company_id    INTEGER NOT NULL REFERENCES companies(id),
  user_id       INTEGER REFERENCES users(id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  expires_at    INTEGER,
  revoked_at    INTEGER,
  CHECK ((role = 'packer') = (user_id IS NOT NULL))
);
CREATE INDEX sessions_user ON sessions (user_id);
