-- Messages by key (shared/messages), as 0017 did for statuses and the outbox: a webhook attempt's reason and a
-- courier call's error keep the interface's English in `error` and carry { key, params } as JSON for the window.
ALTER TABLE webhook_attempts ADD COLUMN error_message TEXT;
ALTER TABLE courier_calls ADD COLUMN error_message TEXT;

-- Reasons recorded before this migration: each fixed English reason the core wrote gets its key, so the window
-- says them in its language without matching English (any other text stays as it is).
UPDATE webhook_attempts SET error_message = CASE
  WHEN error = 'the site refused the connection' THEN '{"key":"webhook.refused"}'
  WHEN error = 'the site closed the connection' THEN '{"key":"webhook.closed"}'
  WHEN error = 'the site could not be reached in time' THEN '{"key":"webhook.slow"}'
  WHEN error = 'the site''s HTTPS certificate was not accepted' THEN '{"key":"webhook.certificate"}'
  WHEN error = 'the site could not be reached' THEN '{"key":"webhook.unreachable"}'
  WHEN error = 'the host name could not be resolved' THEN '{"key":"webhook.noHost"}'
  WHEN error = 'the address is not a public internet address (local and private networks are allowed only in the settings)' THEN '{"key":"webhook.notPublic"}'
  WHEN error = 'the link is not http:// or https://' THEN '{"key":"webhook.notHttp"}'
  WHEN error = 'the site answered with a redirect, which is not followed' THEN '{"key":"webhook.redirect"}'
  WHEN error = 'the order is gone' THEN '{"key":"webhook.orderGone"}'
  WHEN error LIKE 'no answer within % s' THEN json_object('key', 'webhook.timeout', 'params', json_object('seconds', CAST(substr(error, 18, length(error) - 19) AS INTEGER)))
END
WHERE error IS NOT NULL;
