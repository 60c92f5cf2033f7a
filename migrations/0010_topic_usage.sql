-- Topic usage per brand (spec 2 §2.3 topic_pool "least-used-first rotation"; docs/signals.md,
-- "Recommendations"): how often each topic of a brand's pool has been planned by
-- GET /brand/{brand_id}/recommendations, so the next plan moves on to the least-used topics.
--
-- brand_id: an analysis id or a kit's brand_id (either kind of brand is planned for, so no foreign key; rows
-- go with their account). topic_key: the topic lower-cased with its spaces collapsed, so a topic edited in
-- case or spacing keeps its count; topic: the text as last planned. uses: how many plan days it was given.
-- last_planned_for: the latest plan date it was placed on (the tie-break: the longest-unplanned goes first).
CREATE TABLE topic_usage (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  brand_id text NOT NULL,
  topic_key text NOT NULL,
  topic text NOT NULL,
  uses integer NOT NULL CHECK (uses > 0),
  last_planned_for date NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, brand_id, topic_key)
);
