-- Messages as data beside their English text (shared/messages): a JSON { key, params } the window
-- translates, while `description` / `last_error` keep the interface's English for integrators.
ALTER TABLE order_statuses ADD COLUMN description_message TEXT;
ALTER TABLE orders ADD COLUMN status_description_message TEXT;
ALTER TABLE outbox ADD COLUMN last_error_message TEXT;
