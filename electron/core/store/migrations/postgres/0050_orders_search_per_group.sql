-- Twin of SQLite's 0050, which splits its FTS5 orders search (the service number in an index of its own, written once
-- per group of created or registered orders). PostgreSQL searches through its pg_trgm index on the orders
-- themselves (0047), kept by the table's own index maintenance: nothing changes here.
SELECT 1;
