-- "Needs attention": live orders the service refused, that are coming back, or in trouble. The shop marks
-- one as seen; attention_seen_at keeps the status_changed_at it was seen at, so any later status change
-- raises the order again without a trigger. (Counting them needs no index of its own: orders_company_status
-- finds a company's orders in those few statuses.)
ALTER TABLE orders ADD COLUMN attention_seen_at INTEGER;
