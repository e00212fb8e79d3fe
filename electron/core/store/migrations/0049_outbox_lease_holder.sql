-- Several ShipDesk instances on one database (issue 16, item 4): a job's holder is named for what it is, the
-- instance whose lease it is under (an id each running outbox makes at its start), beside the lease's end. A
-- holder renews its leases while its calls are out; one that died leaves jobs any instance takes once
-- lease_until has passed. The index serves the renewal and the release of one holder's jobs.
ALTER TABLE outbox RENAME COLUMN holder TO lease_holder;
CREATE INDEX outbox_lease_holder ON outbox (lease_holder) WHERE lease_holder IS NOT NULL;
