-- The stock-clip library: generated clips seeded at install, plus footage an operator uploads or imports.
CREATE TABLE stock_clips (
  id text PRIMARY KEY,
  title text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  niches text[] NOT NULL DEFAULT '{}',
  duration_sec double precision,
  width integer,
  height integer,
  size_bytes bigint,
  source text NOT NULL CHECK (source IN ('generated', 'uploaded', 'imported', 'provider')),
  status text NOT NULL CHECK (status IN ('ready', 'pending')),
  path text,
  origin_url text,
  external_id text,
  usage_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stock_clips_ready ON stock_clips (status) WHERE status = 'ready';
CREATE INDEX stock_clips_niches ON stock_clips USING gin (niches);
