-- Webhook delivery on a Standard-Webhooks-like schedule (about 3 days of retries), concurrent across processes.
-- event_id: what the receiver sees; a redelivery is a new delivery row of the same event.
-- destination: the URL's origin; attempts in flight per destination are capped by counting live leases.
-- lease_expires_at: set while an attempt is in flight, so a duplicate queue message never sends it twice.
ALTER TABLE webhook_deliveries
  ADD COLUMN event_id text,
  ADD COLUMN destination text,
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN lease_expires_at timestamptz;
UPDATE webhook_deliveries
SET event_id = id,
    destination = lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')),
    next_attempt_at = CASE WHEN state = 'pending' THEN now() END;
ALTER TABLE webhook_deliveries
  ALTER COLUMN event_id SET NOT NULL,
  ALTER COLUMN destination SET NOT NULL,
  DROP CONSTRAINT webhook_deliveries_state_check,
  ADD CONSTRAINT webhook_deliveries_state_check
    CHECK (state IN ('pending', 'delivered', 'failed', 'superseded'));
-- A redelivery supersedes a pending delivery of the same event: at most one is ever being retried.
CREATE UNIQUE INDEX webhook_deliveries_pending_event ON webhook_deliveries (event_id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (destination) WHERE lease_expires_at IS NOT NULL;
CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, created_at DESC);

-- One row per attempt: when, how long, and the receiver's status or why there was none.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status integer,
  error text,
  UNIQUE (delivery_id, attempt)
);
