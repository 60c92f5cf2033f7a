-- Worker heartbeats: a running attempt renews its lease; an attempt whose lease ran out belongs to a dead worker.
ALTER TABLE jobs ADD COLUMN lease_expires_at timestamptz;
CREATE INDEX jobs_expired_leases ON jobs (lease_expires_at) WHERE status IN ('leased', 'running', 'uploading');
