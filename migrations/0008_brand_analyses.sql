-- Brand analyses (spec 2 §2.3, §4.2). POST /brand/analyze accepts a job and writes its analysis row in the
-- same transaction; the row's status is its job's (analyzing while the job is open, ready once it completed).
--
-- brand_crawls: one crawl of a site (gzip-compressed JSON) with the logo it yielded, kept so that re-analysing the same URL within
-- 7 days answers from it without touching the network (warm). Per account, like everything an account asks for.
-- logo_key: the normalized logo in the media store; logo: { source_url, source, measurements, colors };
-- logo_attempts: every logo candidate tried, with why the refused ones were refused.
CREATE TABLE brand_crawls (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  crawl bytea NOT NULL,
  logo_key text,
  logo jsonb,
  logo_attempts jsonb NOT NULL DEFAULT '[]',
  crawled_at timestamptz NOT NULL DEFAULT now()
);

-- url: the requested URL, normalized (the warm key). profile: the analysed profile (spec 2.3) without its
-- logo link, which is signed when read. overrides: fields set by PATCH, by path ("tone", "colors.primary"),
-- laid over the analysed profile and carried to the next analysis of the same URL.
CREATE TABLE brand_analyses (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  job_id text NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  url text NOT NULL,
  previous_brand_id text REFERENCES brand_analyses (id) ON DELETE SET NULL,
  crawl_id text REFERENCES brand_crawls (id) ON DELETE SET NULL,
  warm boolean NOT NULL DEFAULT false,
  profile jsonb,
  overrides jsonb NOT NULL DEFAULT '{}',
  analyzed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX brand_analyses_account_url ON brand_analyses (account_id, url, created_at DESC);
CREATE INDEX brand_crawls_account_url ON brand_crawls (account_id, url, crawled_at DESC);
