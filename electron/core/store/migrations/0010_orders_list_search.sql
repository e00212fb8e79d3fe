-- The orders list on a shop with years of orders (100,000 and more).
--
-- Search: a substring of clientNumber, providerNumber, recipient name or phone. A LIKE '%…%' over four
-- columns read every order (≈400 ms at 100,000); an FTS5 trigram index answers any substring of three
-- characters or more from its index, case-insensitively in Cyrillic too. It is an external-content
-- table over `orders` (nothing stored twice), kept up to date by the triggers below.
CREATE VIRTUAL TABLE orders_search USING fts5(
  client_number, provider_number, recipient_name, recipient_phone,
  content = 'orders', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
);
INSERT INTO orders_search(orders_search) VALUES ('rebuild');

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders BEGIN
  INSERT INTO orders_search(rowid, client_number, provider_number, recipient_name, recipient_phone)
  VALUES (new.id, new.client_number, new.provider_number, new.recipient_name, new.recipient_phone);
END;
CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
  INSERT INTO orders_search(orders_search, rowid, client_number, provider_number, recipient_name, recipient_phone)
  VALUES ('delete', old.id, old.client_number, old.provider_number, old.recipient_name, old.recipient_phone);
END;
CREATE TRIGGER orders_search_update AFTER UPDATE OF client_number, provider_number, recipient_name, recipient_phone ON orders BEGIN
  INSERT INTO orders_search(orders_search, rowid, client_number, provider_number, recipient_name, recipient_phone)
  VALUES ('delete', old.id, old.client_number, old.provider_number, old.recipient_name, old.recipient_phone);
  INSERT INTO orders_search(rowid, client_number, provider_number, recipient_name, recipient_phone)
  VALUES (new.id, new.client_number, new.provider_number, new.recipient_name, new.recipient_phone);
END;

-- Sorting by a column header, and the date filter, read the live orders in that column's order from an
-- index (id breaks ties, so windows fetched while scrolling never overlap) instead of sorting them all
-- for every window. (clientNumber and status have theirs already: orders_company_client_number from
-- 0003 and orders_company_status from 0001, the row id being the last column of every index.)
CREATE INDEX orders_list_created ON orders(company_id, created_at, id) WHERE state != 'deleted';
CREATE INDEX orders_list_cod ON orders(company_id, cod_kopecks, id) WHERE state != 'deleted';
