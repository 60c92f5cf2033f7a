-- Presenter series (spec 1 §4.5): a series_id under a saved brand kit fixes the presenter, the voice and the
-- engine of its first video, and refuses a topic it already covered. Rows are written in the transaction that
-- accepts the job, so a refused request (409, free) leaves nothing behind and two concurrent first videos of
-- one series cannot both fix it (the primary key decides).
--
-- presenter: the persona id, or 'photo:<url>' for a photo-only presenter, or 'logo_host'.
-- voice_id: the voice the first video asked for (null: the presenter's default voice).
-- topic_key: the topic (or sent script) lowercased with runs of non-letters collapsed, so "Sleep tips!" and
-- "sleep  tips" are one topic.
CREATE TABLE presenter_series (
  account_id text NOT NULL,
  brand_id text NOT NULL,
  series_id text NOT NULL,
  presenter text NOT NULL,
  voice_id text,
  engine text NOT NULL,
  first_job_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, brand_id, series_id)
);

CREATE TABLE presenter_series_topics (
  account_id text NOT NULL,
  brand_id text NOT NULL,
  series_id text NOT NULL,
  topic_key text NOT NULL,
  job_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, brand_id, series_id, topic_key),
  FOREIGN KEY (account_id, brand_id, series_id)
    REFERENCES presenter_series (account_id, brand_id, series_id) ON DELETE CASCADE
);
