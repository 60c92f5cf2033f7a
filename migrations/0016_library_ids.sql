-- Library ids (spec 2 §2.5, §4.4; docs/library.md): every job gets a 24-hex id, the video_id of the library
-- video(s) it makes, next to the job's own ids (job_…, vid_…) which stay as they are. Shaped like a MongoDB
-- ObjectId so "newest first" is "highest id first" and a page cursor is simply the last id of a page:
--   8 hex  seconds since 1970 of the moment the row is written
--   5 hex  microseconds within that second (rows written one after another sort in that order)
--   9 hex  random (two rows of one microsecond differ here; the unique index below refuses a clash)
--   2 hex  00: the job's own video; a clip job's clip n (n ≥ 1) is the same id ending in n as two hex digits
-- C collation: ids compare byte by byte, whatever the database's locale.
CREATE FUNCTION library_video_id(at timestamptz) RETURNS text
LANGUAGE sql VOLATILE AS $$
  SELECT lpad(to_hex(floor(extract(epoch FROM at))::bigint), 8, '0')
    || lpad(to_hex(extract(microseconds FROM at)::bigint % 1000000), 5, '0')
    || substr(md5(gen_random_uuid()::text), 1, 9)
    || '00'
$$;

ALTER TABLE jobs ADD COLUMN library_id text COLLATE "C";
-- Jobs made before this migration: the id of the moment they were accepted.
UPDATE jobs SET library_id = library_video_id(created_at);
ALTER TABLE jobs
  ALTER COLUMN library_id SET DEFAULT library_video_id(clock_timestamp()),
  ALTER COLUMN library_id SET NOT NULL,
  ADD CONSTRAINT jobs_library_id_shape CHECK (library_id ~ '^[0-9a-f]{22}00$');

CREATE UNIQUE INDEX jobs_library_id ON jobs (library_id);
-- The library list: one account's live (or sandbox) jobs, newest first, continued below a cursor.
CREATE INDEX jobs_account_library ON jobs (account_id, sandbox, library_id);
