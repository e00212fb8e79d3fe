-- Handing parcels over to a delivery service (the dispatch screen): one row per handover of one service,
-- its act number as printed («20261125-sandbox-express», «-2» for a second one that day), and the orders
-- it took. An order with no handover is "not handed over yet"; the partial index keeps the dispatch
-- screen's read (registered, live, not handed over) off the whole orders table.
CREATE TABLE handovers (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  provider_key TEXT NOT NULL,
  number TEXT NOT NULL,
  handed_at INTEGER NOT NULL,
  orders INTEGER NOT NULL,
  places INTEGER NOT NULL,
  weight_grams REAL NOT NULL,
  UNIQUE (company_id, number)
);

ALTER TABLE orders ADD COLUMN handover_id INTEGER REFERENCES handovers(id);

CREATE INDEX orders_awaiting_handover ON orders(company_id, provider_key, id)
  WHERE handover_id IS NULL AND state = 'active' AND provider_number IS NOT NULL;
