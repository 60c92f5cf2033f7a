-- Publishing (docs/publishing.md): an account's connections to the five platforms, and what each publish job
-- posted where.
--
-- A connection holds the OAuth tokens the account's owner obtained for one platform account (a channel, a page,
-- a profile). `tokens` is the AES-256-GCM ciphertext of {access_token, refresh_token} under PLATFORM_TOKEN_KEY
-- (src/publishing/connections/token-cipher.ts); `key_fingerprint` names that key, so a service started with
-- another key says so instead of failing to decrypt. Tokens are never returned by any route.
-- status: active, or expired once a refresh was refused (the owner must connect again).
CREATE TABLE platform_connections (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL,
  external_account_id text NOT NULL,
  display_name text,
  tokens bytea NOT NULL,
  key_fingerprint text NOT NULL,
  access_expires_at timestamptz,
  scopes text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired')),
  status_reason text,
  refreshed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, platform)
);
CREATE INDEX platform_connections_expiring ON platform_connections (access_expires_at) WHERE status = 'active';

-- One platform of one publish job (POST /post, or a fan-out job of POST /jobs). Written when the job is
-- accepted (queued) and moved to posted or failed by the worker; a retried job skips the platforms already
-- posted, so a platform never gets the video twice.
CREATE TABLE platform_posts (
  job_id text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  platform text NOT NULL,
  connection_id text REFERENCES platform_connections (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'posted', 'failed')),
  external_id text,
  external_url text,
  posted_at timestamptz,
  error_code text,
  error_message text,
  failed_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, platform)
);

-- POST /post names a video by its video_id as often as by its job id.
CREATE INDEX jobs_account_video ON jobs (account_id, video_id);
