-- The import wizard: column-mapping presets, and imports that land as drafts.

-- A named mapping the wizard offers again: the upload settings (JSON: providerKey, columnSettings,
-- columnMap, defaultData) and the header row it was made for (JSON [{ column, title }]), by which a new
-- file's headers are recognised. One name per company; saving a name again replaces it.
CREATE TABLE import_presets (
  id          INTEGER PRIMARY KEY,
  company_id  INTEGER NOT NULL REFERENCES companies(id),
  name        TEXT    NOT NULL,
  settings    TEXT    NOT NULL,
  headers     TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX import_presets_company_name ON import_presets(company_id, name);

-- An order of an import that was saved as a draft (to check before sending) instead of an order.
ALTER TABLE import_rows ADD COLUMN draft_id TEXT;
