-- Spreadsheet imports (POST /orders/upload and the desktop import wizard). One row per file: the file
-- as received (for the errors file; cleared after a week), the settings of its last run, its progress.
CREATE TABLE imports (
  id               INTEGER PRIMARY KEY,
  company_id       INTEGER NOT NULL REFERENCES companies(id),
  origin           TEXT    NOT NULL CHECK (origin IN ('api', 'desktop')),
  mode             TEXT    NOT NULL CHECK (mode IN ('sync', 'async')),
  status           TEXT    NOT NULL CHECK (status IN ('staged', 'queued', 'reading', 'creating', 'registering', 'done', 'failed', 'canceled')),
  file_name        TEXT,
  file_size        INTEGER NOT NULL,
  source           BLOB,
  settings         TEXT,
  errors_to_file   INTEGER NOT NULL DEFAULT 0,
  total            INTEGER NOT NULL DEFAULT 0,
  done             INTEGER NOT NULL DEFAULT 0,
  created          INTEGER NOT NULL DEFAULT 0,
  failed           INTEGER NOT NULL DEFAULT 0,
  -- the interface error body (JSON) when the whole file was refused
  error            TEXT,
  errors_file      BLOB,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  finished_at      INTEGER
);
CREATE INDEX imports_company ON imports(company_id, id DESC);

-- One row per order of the file, in file order: the order it became, or why not (JSON: the result
-- item's code, message, description, moreInfo, errors, and each error's sheet row for the errors file).
-- Written in the same transaction as the orders it records.
CREATE TABLE import_rows (
  import_id      INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  row            INTEGER NOT NULL,
  last_row       INTEGER NOT NULL,
  client_number  TEXT    NOT NULL,
  order_id       INTEGER REFERENCES orders(id),
  created_at     INTEGER,
  error          TEXT,
  PRIMARY KEY (import_id, seq)
) WITHOUT ROWID;
CREATE INDEX import_rows_order ON import_rows(order_id) WHERE order_id IS NOT NULL;
