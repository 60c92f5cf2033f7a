-- Saved brand kits (spec 2 §2.4, §4.3), one account's each. `id` is 24 hex characters ordered by creation time:
-- lists run newest first by it and a page's cursor is the last id. What the caller set (`fields`, locked against
-- re-crawls) and what the last crawl found (`auto`) are kept apart, so clearing a field falls back to the site's
-- value and a refresh never overwrites the caller's. Both logos are kept: the caller's and the site's. The JSON
-- columns are `json`, not `jsonb`: they are never searched, and `json` keeps the answer's field order.
CREATE TABLE brand_kits (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{24}$'),
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  brand_id text NOT NULL,
  customer_id text,
  website_url text,
  domain text,
  fields json NOT NULL DEFAULT '{}',
  auto json,
  caller_logo json,
  site_logo json,
  design json NOT NULL,
  autogen json,
  crawled_at timestamptz,
  authorized_by json NOT NULL,
  authorized_at timestamptz NOT NULL,
  revision integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, brand_id)
);
CREATE INDEX brand_kits_account_order ON brand_kits (account_id, id DESC);
CREATE INDEX brand_kits_account_domain ON brand_kits (account_id, domain, id DESC) WHERE domain IS NOT NULL;
