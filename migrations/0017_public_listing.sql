-- Public listing (spec 1 §4.2 `listing`, docs/studio.md): a finished public video has a watch page and is on the
-- discovery page, sitemap.xml and the feed; private (the default) is on none of them.
ALTER TABLE jobs ADD COLUMN listing text NOT NULL DEFAULT 'private' CHECK (listing IN ('private', 'public'));
CREATE INDEX jobs_public_listing ON jobs (finished_at DESC) WHERE listing = 'public' AND status = 'completed';
CREATE INDEX jobs_public_video ON jobs (video_id) WHERE listing = 'public';
-- The Studio's job list: an account's jobs, newest first.
CREATE INDEX jobs_account_created ON jobs (account_id, created_at DESC, id DESC);
