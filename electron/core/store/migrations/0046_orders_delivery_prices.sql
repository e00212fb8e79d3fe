-- The two delivery prices of an order (its payload's cost.quotedDeliveryCost and cost.deliveryCost, rubles) kept
-- beside it as integer kopecks, written with the payload, so the orders list and the export read two columns
-- instead of parsing every payload. NULL: the payload names no such price.
ALTER TABLE orders ADD COLUMN quoted_delivery_kopecks INTEGER;
ALTER TABLE orders ADD COLUMN delivery_kopecks INTEGER;

UPDATE orders SET
  quoted_delivery_kopecks = CAST(round(json_extract(payload, '$.cost.quotedDeliveryCost') * 100) AS INTEGER),
  delivery_kopecks = CAST(round(json_extract(payload, '$.cost.deliveryCost') * 100) AS INTEGER)
WHERE json_valid(payload);
