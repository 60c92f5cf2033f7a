-- Operator footage: what an upload or an external import needs beyond 0003, and who may change the library.
ALTER TABLE stock_clips
  ADD COLUMN description text,
  ADD COLUMN external_source text,
  ADD COLUMN attribution text,
  ADD COLUMN created_by text,
  ADD COLUMN last_error text;

-- One record per clip of an external library: importing the same record again updates it.
CREATE UNIQUE INDEX stock_clips_external ON stock_clips (external_source, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX stock_clips_tags ON stock_clips USING gin (tags);
CREATE INDEX stock_clips_listing ON stock_clips (created_at DESC, id DESC);

-- Accounts that may write to the server-wide stock library besides the account named 'default'.
CREATE TABLE stock_clip_operators (
  account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now()
);
