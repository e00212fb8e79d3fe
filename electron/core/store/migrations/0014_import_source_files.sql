-- An import's file is kept in the data folder (imports/<company>/<import>.xlsx), no longer as a BLOB in
-- the database: source_path is that file's path relative to the data folder. Sources still stored as
-- BLOBs are moved to files by the import service when it starts (SQL cannot write files).
ALTER TABLE imports ADD COLUMN source_path TEXT;
CREATE INDEX imports_kept_sources ON imports(company_id, id) WHERE source_path IS NOT NULL;
CREATE INDEX imports_unfinished ON imports(status) WHERE status IN ('queued', 'reading', 'creating', 'registering');
-- Where a run puts its orders (1: drafts of the wizard), so that a run a crash interrupted is taken up
-- again the same way.
ALTER TABLE imports ADD COLUMN as_drafts INTEGER NOT NULL DEFAULT 0;
