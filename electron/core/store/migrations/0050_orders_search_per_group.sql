-- The orders search index written once per group of created or registered orders (issue 16, the create benchmark).
-- Measured: FTS5 writes its pending terms to disk at every statement savepoint, and each single-order INSERT (or a
-- registration's UPDATE) with these triggers is such a statement, so every order became a segment of its own to
-- write and merge (≈ 190 µs of an order's ≈ 230 µs in the store; the registration's UPDATE re-indexed the name and
-- phone again, ≈ 110 µs). Now:
-- * the service (provider) number has an index of its own, so recording it does not touch the recipient's terms;
-- * the triggers still index every write, unless the writer set orders_search_deferred in its transaction: then
--   it indexes its group itself in one statement before commit (the orders store's group create and registration,
--   store/orders/sqlite.ts), and sets the flag back in the same transaction, so no other reader ever sees it set;
-- * the indexed text has one home, the view orders_search_text (the recipient as shared/search-text.ts folds it,
--   order_recipient_search_text, registered on each connection by migrate()).
-- Search results stay the same: an order matches when a variant is in its number, its service number or its
-- recipient's text, now found in either index.
DROP TRIGGER orders_search_insert;
DROP TRIGGER orders_search_delete;
DROP TRIGGER orders_search_update;
DROP TABLE orders_search;

CREATE VIEW orders_search_text AS
SELECT id, client_number,
       order_recipient_search_text(recipient_name, recipient_phone, json_extract(payload, '$.recipient.email'), recipient_city,
                                   json_extract(payload, '$.recipient.street'), json_extract(payload, '$.recipient.addressString')) AS recipient
FROM orders;

CREATE VIRTUAL TABLE orders_search USING fts5(
  client_number, recipient,
  content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1'
);
CREATE VIRTUAL TABLE orders_search_numbers USING fts5(
  provider_number,
  content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1'
);

-- One row: 1 while a writer indexes its group itself (set and cleared inside its transaction).
CREATE TABLE orders_search_deferred (id INTEGER PRIMARY KEY CHECK (id = 1), deferred INTEGER NOT NULL);
INSERT INTO orders_search_deferred (id, deferred) VALUES (1, 0);

INSERT INTO orders_search (rowid, client_number, recipient) SELECT id, client_number, recipient FROM orders_search_text;
INSERT INTO orders_search_numbers (rowid, provider_number) SELECT id, provider_number FROM orders WHERE provider_number IS NOT NULL;

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders
WHEN (SELECT deferred FROM orders_search_deferred) = 0 BEGIN
  INSERT INTO orders_search (rowid, client_number, recipient) SELECT id, client_number, recipient FROM orders_search_text WHERE id = new.id;
  INSERT INTO orders_search_numbers (rowid, provider_number) SELECT new.id, new.provider_number WHERE new.provider_number IS NOT NULL;
END;
CREATE TRIGGER orders_search_update AFTER UPDATE OF client_number, recipient_name, recipient_phone, recipient_city, payload ON orders
WHEN (SELECT deferred FROM orders_search_deferred) = 0 BEGIN
  DELETE FROM orders_search WHERE rowid = old.id;
  INSERT INTO orders_search (rowid, client_number, recipient) SELECT id, client_number, recipient FROM orders_search_text WHERE id = new.id;
END;
CREATE TRIGGER orders_search_numbers_update AFTER UPDATE OF provider_number ON orders
WHEN (SELECT deferred FROM orders_search_deferred) = 0 BEGIN
  DELETE FROM orders_search_numbers WHERE rowid = old.id;
  INSERT INTO orders_search_numbers (rowid, provider_number) SELECT new.id, new.provider_number WHERE new.provider_number IS NOT NULL;
END;
CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
  DELETE FROM orders_search WHERE rowid = old.id;
  DELETE FROM orders_search_numbers WHERE rowid = old.id;
END;
