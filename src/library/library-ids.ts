// A library video's id (spec 2 §2.5): 24 hex characters. A job's own id comes from the database
// (migrations/0016_library_ids.sql) and ends in 00; clip n (n ≥ 1) of a clip job is that id ending in n as two
// hex digits (library-repo.ts), so every clip of one job sorts next to the others and a clip's id names its job.

export const VIDEO_ID_PATTERN = /^[0-9a-f]{24}$/;

/** The library id of the job that made a video. */
export function jobLibraryId(videoId: string): string {
  return `${videoId.slice(0, 22)}00`;
}
