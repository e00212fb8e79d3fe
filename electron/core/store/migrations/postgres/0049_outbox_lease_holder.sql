-- Twin of SQLite's 0049: outbox.holder becomes lease_holder (the instance whose lease the job is under, until
-- lease_until), with a partial index for the renewal and the release of one holder's jobs. Several instances
-- claim from this table at once (FOR UPDATE SKIP LOCKED, orders/postgres.ts).
ALTER TABLE outbox RENAME COLUMN holder TO lease_holder;
CREATE INDEX outbox_lease_holder ON outbox (lease_holder) WHERE lease_holder IS NOT NULL;
