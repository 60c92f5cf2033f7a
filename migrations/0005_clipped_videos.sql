-- Video-site videos each account has clipped, so channel mode (the autoclipper of spec 1 §4.3) takes the next
-- one. A row is written in the transaction that accepts the job; it stops counting when that job is cancelled,
-- dead-lettered or failed with a retryable error (see docs/clips.md), and a later job may then take it over.
CREATE TABLE clipped_videos (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  video_id text NOT NULL,
  job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  channel_url text,
  title text,
  clipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, video_id)
);
CREATE INDEX clipped_videos_job ON clipped_videos (job_id);
