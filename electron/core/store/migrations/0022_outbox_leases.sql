-- Registration in parallel (issue 16, item 5). A job is claimed by a holder (one running outbox) for a
-- lease: while the lease lasts no other pass or instance takes it, and a holder that died leaves jobs that
-- become claimable again when their lease ends (how several instances on one PostgreSQL will share the queue).
-- failed_attempts counts only the failures that bring a job nearer its attempt limit (a service that named
-- its Retry-After, or a trial call to a service thought dead, does not), unlike attempts, which counts every
-- claim and makes a re-send ask the service first.
ALTER TABLE outbox ADD COLUMN holder TEXT;
ALTER TABLE outbox ADD COLUMN lease_until INTEGER;
ALTER TABLE outbox ADD COLUMN failed_attempts INTEGER NOT NULL DEFAULT 0;
