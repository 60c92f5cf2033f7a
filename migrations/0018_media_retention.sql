-- Media retention (MEDIA_RETENTION_DAYS): when a finished job's files were deleted (its record stays, its links
-- answer 410), and periodic upkeep that must run once per interval across every process.
ALTER TABLE jobs ADD COLUMN media_deleted_at timestamptz;
CREATE INDEX jobs_media_to_expire ON jobs (finished_at) WHERE media_deleted_at IS NULL AND finished_at IS NOT NULL;

CREATE TABLE maintenance_runs (
  name text PRIMARY KEY,
  last_run_at timestamptz NOT NULL
);
