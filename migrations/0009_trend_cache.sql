-- Trends radar cache (spec 2 §4.1, §8; docs/signals.md): the items gathered from every trend source, kept
-- 10 minutes per (geo, category) in PostgreSQL so that every API process answers from the same snapshot.
--
-- category '' is "no category". fetched_at is truncated to milliseconds, so the value read back into
-- JavaScript equals the stored one (builds are matched on it). items: the SourceItem[] of the fetch, as json
-- (kept as written, never queried inside). failed_sources: the sources that failed in the last fetch.
-- refresh_token / refresh_lease_until: the one fetch in flight for the key; other requests wait for it instead
-- of fetching again, and take over once the lease has run out (its process died). failed_token: the last
-- fetch that found every source down, so the requests that waited on it answer 503 too instead of each
-- fetching again in turn.
CREATE TABLE trend_cache (
  geo text NOT NULL,
  category text NOT NULL,
  fetched_at timestamptz,
  expires_at timestamptz,
  items json,
  warnings jsonb NOT NULL DEFAULT '[]',
  failed_sources text[] NOT NULL DEFAULT '{}',
  refresh_token text,
  refresh_lease_until timestamptz,
  failed_token text,
  PRIMARY KEY (geo, category)
);

-- The trends built from one snapshot for one window (window_hours 1-168), stored by the first request that
-- needed them: a repeat within the 10 minutes answers exactly the same trend set from any process, without
-- clustering again. A row belongs to the snapshot whose fetched_at it carries; a newer snapshot replaces it.
-- trends: the Trend[] as json, so fields keep the order the API shows them in.
CREATE TABLE trend_cache_builds (
  geo text NOT NULL,
  category text NOT NULL,
  window_hours integer NOT NULL CHECK (window_hours BETWEEN 1 AND 168),
  fetched_at timestamptz NOT NULL,
  trends json NOT NULL,
  PRIMARY KEY (geo, category, window_hours),
  FOREIGN KEY (geo, category) REFERENCES trend_cache (geo, category) ON DELETE CASCADE
);
