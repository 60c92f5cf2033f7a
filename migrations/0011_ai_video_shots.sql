-- One row per shot of an AI-video job (spec 1 §4.4; docs/ai-video.md, "Shots"): what each shot is, who makes it
-- and what it costs. A shot handed to a hosted model provider keeps the provider's request id from the moment
-- it is submitted, so a retried or resumed job follows that request again and never pays a provider twice for
-- one shot; a finished shot keeps its result URL, so another machine can fetch the file again.
--
-- engine: local | fal | replicate. status: planned → submitted → completed, or failed (the job then fails).
-- submission: the provider's follow-up data (request id and URLs) as the client returned it.
-- source: where the shot's pixels come from (a library clip and its in-point, the caller's photo, or the
-- provider's model), shown in artifacts.shots[]. cost_usd_cents: the shot's share of the charge.
-- job_id has no foreign key: the render CLI and the benchmark run the pipeline without a queued job.
CREATE TABLE ai_video_shots (
  job_id text NOT NULL,
  shot_index integer NOT NULL CHECK (shot_index >= 0),
  engine text NOT NULL,
  provider_model text,
  prompt text NOT NULL,
  seconds real NOT NULL CHECK (seconds > 0),
  cost_usd_cents real NOT NULL CHECK (cost_usd_cents >= 0),
  status text NOT NULL CHECK (status IN ('planned', 'submitted', 'completed', 'failed')),
  provider_request_id text,
  submission jsonb,
  result_url text,
  source jsonb NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, shot_index)
);
