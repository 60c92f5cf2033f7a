-- Schedules (POST /schedules, docs/schedules.md): recurring plans that submit one generation request per tick
-- through the normal Generate path, as the API key that created them, and what each tick did.
--
-- recurrence_kind/expression/time_zone/start_wall: a 5-field cron expression or an RRULE value, read in an
-- IANA zone; start_wall is a wall-clock time in that zone (an RRULE's DTSTART; no cron run before it).
-- body: the generation body exactly as sent, submitted again at every tick (so it is validated again then).
-- status: active (next_run_at set), paused (by the caller, or by the service with status_reason, e.g. a
-- revoked key), or ended (no occurrence left). cursor: where an RRULE's walk resumes (recurrence.ts).
-- price_cents: the dry-run price per run when the schedule was made (null when the dry run was refused for
-- the moment, e.g. no new channel video yet); each job is charged when it is made.
CREATE TABLE schedules (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  api_key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  sandbox boolean NOT NULL,
  name text,
  recurrence_kind text NOT NULL CHECK (recurrence_kind IN ('cron', 'rrule')),
  expression text NOT NULL,
  time_zone text NOT NULL,
  start_wall text NOT NULL,
  endpoint text NOT NULL,
  body jsonb NOT NULL,
  price_cents integer CHECK (price_cents >= 0),
  status text NOT NULL CHECK (status IN ('active', 'paused', 'ended')),
  status_reason jsonb,
  next_run_at timestamptz,
  cursor jsonb,
  last_run_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'active') = (next_run_at IS NOT NULL))
);
-- The ticker's claim: due active schedules, oldest first (SELECT … FOR UPDATE SKIP LOCKED).
CREATE INDEX schedules_due ON schedules (next_run_at) WHERE status = 'active';
CREATE INDEX schedules_account_order ON schedules (account_id, created_at DESC, id DESC);

-- One tick of a schedule, recorded in the transaction that claims it. The primary key makes a tick happen
-- once; the job it made also carries the Idempotency-Key schedule:<id>:<tick_at>.
-- status: job_created (job_ids: usually one; several for a variations request), skipped (error_code and
-- error_message say why: the refusal of the Generate path, e.g. INSUFFICIENT_API_CREDITS, or
-- API_KEY_REVOKED), or missed (ticks that passed while no worker ran: tick_at is the first, last_missed_at the
-- last, missed_count how many; only the latest due tick runs after downtime).
CREATE TABLE schedule_runs (
  schedule_id text NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  tick_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('job_created', 'skipped', 'missed')),
  job_ids text[] NOT NULL DEFAULT '{}',
  price_cents integer,
  error_code text,
  error_message text,
  missed_count integer,
  last_missed_at timestamptz,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (schedule_id, tick_at)
);
