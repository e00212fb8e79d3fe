-- Search finds what a shop types (issue 15): the recipient's city, e-mail and street besides the name,
-- a phone in any writing ("+7 (916) 123-45-67", "8 916…", "917 444"), "семенова" for "Семёнова".
-- The index keeps the numbers as they are and the recipient's text normalised by
-- shared/search-text.ts (order_recipient_search_text, registered on each connection by migrate()):
-- the search folds what is typed with the same function. Contentless, with deletes by rowid, so a
-- later change of the normalisation cannot leave stale entries that a 'delete' with new values misses.
DROP TRIGGER orders_search_insert;
DROP TRIGGER orders_search_delete;
DROP TRIGGER orders_search_update;
DROP TABLE orders_search;

CREATE VIRTUAL TABLE orders_search USING fts5(
  client_number, provider_number, recipient,
  content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1'
);

INSERT INTO orders_search(rowid, client_number, provider_number, recipient)
SELECT id, client_number, provider_number,
       order_recipient_search_text(recipient_name, recipient_phone, json_extract(payload, '$.recipient.email'), recipient_city,
                                   json_extract(payload, '$.recipient.street'), json_extract(payload, '$.recipient.addressString'))
FROM orders;

CREATE TRIGGER orders_search_insert AFTER INSERT ON orders BEGIN
  INSERT INTO orders_search(rowid, client_number, provider_number, recipient)
  VALUES (new.id, new.client_number, new.provider_number,
          order_recipient_search_text(new.recipient_name, new.recipient_phone, json_extract(new.payload, '$.recipient.email'), new.recipient_city,
                                      json_extract(new.payload, '$.recipient.street'), json_extract(new.payload, '$.recipient.addressString')));
END;
CREATE TRIGGER orders_search_delete AFTER DELETE ON orders BEGIN
  DELETE FROM orders_search WHERE rowid = old.id;
END;
CREATE TRIGGER orders_search_update AFTER UPDATE OF client_number, provider_number, recipient_name, recipient_phone, recipient_city, payload ON orders BEGIN
  DELETE FROM orders_search WHERE rowid = old.id;
  INSERT INTO orders_search(rowid, client_number, provider_number, recipient)
  VALUES (new.id, new.client_number, new.provider_number,
          order_recipient_search_text(new.recipient_name, new.recipient_phone, json_extract(new.payload, '$.recipient.email'), new.recipient_city,
                                      json_extract(new.payload, '$.recipient.street'), json_extract(new.payload, '$.recipient.addressString')));
END;
