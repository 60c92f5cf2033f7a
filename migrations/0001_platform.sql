-- Platform: accounts, keys, ledger, jobs, progress, idempotency, webhooks outbox, rate counters.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  balance_cents bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  webhook_secret text NOT NULL,
  brand jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_name_key ON accounts (name);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  sandbox boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Money moves only by appending here; accounts.balance_cents is kept equal to the sum of the entries
-- in the same transaction and its CHECK makes a negative balance impossible.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('top_up', 'charge', 'refund')),
  amount_cents bigint NOT NULL,
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  job_id text,
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'charge' AND amount_cents < 0) OR (kind <> 'charge' AND amount_cents > 0))
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);
CREATE INDEX ledger_entries_job ON ledger_entries (job_id) WHERE job_id IS NOT NULL;
-- A job is refunded at most once for each reason (a failure, a cancellation, undelivered clips).
CREATE UNIQUE INDEX ledger_entries_one_refund ON ledger_entries (job_id, reason) WHERE kind = 'refund';

CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

CREATE TABLE jobs (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  api_key_id text REFERENCES api_keys (id),
  sandbox boolean NOT NULL DEFAULT false,
  mode text NOT NULL,
  operation text NOT NULL,
  endpoint text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  heavy boolean NOT NULL DEFAULT false,
  request jsonb NOT NULL,
  artifacts jsonb NOT NULL DEFAULT '{}'::jsonb,
  error jsonb,
  price_cents integer NOT NULL DEFAULT 0,
  video_id text NOT NULL,
  webhook_url text,
  private_delivery boolean NOT NULL DEFAULT false,
  agent_run_id text,
  batch_id text,
  deadline_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX jobs_account_status ON jobs (account_id, status);
CREATE INDEX jobs_open_deadline ON jobs (deadline_at) WHERE status IN ('queued', 'leased', 'running', 'uploading');

CREATE TABLE job_events (
  id bigserial PRIMARY KEY,
  job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL,
  stage text NOT NULL,
  message text NOT NULL,
  percent real NOT NULL,
  url text
);
CREATE INDEX job_events_job ON job_events (job_id, id);

-- One row per (account, Idempotency-Key): 'pending' while the first request is handled, then the stored answer.
CREATE TABLE idempotency_records (
  account_id text NOT NULL REFERENCES accounts (id),
  key text NOT NULL,
  endpoint text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'done')),
  status_code integer,
  response_body jsonb,
  response_headers jsonb,
  job_ids text[] NOT NULL DEFAULT '{}',
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);

-- Identical-request protection: the same body on the same endpoint, whatever the key.
CREATE TABLE request_fingerprints (
  account_id text NOT NULL REFERENCES accounts (id),
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'accepted')),
  status_code integer,
  response_body jsonb,
  response_headers jsonb,
  job_ids text[] NOT NULL DEFAULT '{}',
  locked_until timestamptz NOT NULL,
  accepted_at timestamptz,
  PRIMARY KEY (account_id, fingerprint)
);

-- Durable outbox of webhook deliveries, written in the transaction that ends the job.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  url text NOT NULL,
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id);

-- Fixed-window counters shared by every API process; unlogged because losing them on a crash is harmless.
CREATE UNLOGGED TABLE rate_counters (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
