-- PostgreSQL's twin of this number adds its orders search index (a pg_trgm index on the folded search text).
-- SQLite has had its own since 0026 (the FTS5 table orders_search): nothing changes here.
SELECT 1;
