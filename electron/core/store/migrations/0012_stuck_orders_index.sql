-- "Stuck" orders (live, unfinished, no new status for days) are counted when the window opens and after
-- each burst of changes. Without an index the count read every order of the company (0.5–1.4 s with
-- 100,000 orders, ahead of the orders list's first page). The index holds only live unfinished orders,
-- in the order of their last status change; the query repeats its WHERE literally so SQLite can use it.
CREATE INDEX orders_stuck ON orders(company_id, status_changed_at, id)
  WHERE state = 'active' AND status_key NOT IN ('delivered', 'returned', 'partialReturn', 'deliveryCanceled', 'lost');
