-- Twin of SQLite's 0046: the order's two delivery prices (its payload's cost.quotedDeliveryCost and
-- cost.deliveryCost, rubles) kept beside it as integer kopecks, so the orders list and the export read two
-- columns instead of parsing every payload. NULL: the payload names no such price (or is not JSON).
ALTER TABLE orders ADD COLUMN quoted_delivery_kopecks bigint;
ALTER TABLE orders ADD COLUMN delivery_kopecks bigint;

CREATE FUNCTION shipdesk_payload_kopecks(payload text, price text) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN round((payload::jsonb -> 'cost' ->> price)::numeric * 100)::bigint;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

UPDATE orders SET
  quoted_delivery_kopecks = shipdesk_payload_kopecks(payload, 'quotedDeliveryCost'),
  delivery_kopecks = shipdesk_payload_kopecks(payload, 'deliveryCost');

DROP FUNCTION shipdesk_payload_kopecks(text, text);
