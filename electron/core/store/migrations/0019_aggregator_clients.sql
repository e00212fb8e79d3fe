-- What existing integrations of the aggregator read and send beyond the interface document.

-- A point's street type ("ул.", "пр-кт") and free description ("вход со двора"), as their clients read them.
ALTER TABLE points ADD COLUMN street_type TEXT;
ALTER TABLE points ADD COLUMN description TEXT;

-- The API login of a company (POST /login gives its token to the SDK's default adapter): set by the owner
-- in Settings → Local API. The password is kept as scrypt(salt, N, r, p), never as text.
CREATE TABLE api_logins (
  company_id    INTEGER PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  login         TEXT    NOT NULL UNIQUE,
  password_hash TEXT    NOT NULL,
  updated_at    INTEGER NOT NULL
);
