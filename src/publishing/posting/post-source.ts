// The finished video a publish request posts: a completed job of the caller's account with a video file.
import type { Db } from '../../platform/db/database.ts';
import { errors } from '../../platform/errors.ts';
import type { StoredArtifacts } from '../../platform/jobs/job-presenter.ts';
import { findAccountJob, findAccountJobByVideo } from '../../platform/jobs/jobs-repo.ts';

/** What the publish job keeps about its source: where the file is and the copy it came with. */
export interface PostSource {
  job_id: string;
  video_id: string;
  video_key: string;
  duration_sec: number;
  title?: string;
  description?: string;
  hashtags?: string[];
}

/** The source video by job id or video id; 404 when the account has no such video, 409 while it is not finished. */
export async function findPostSource(
  db: Db,
  accountId: string,
  ref: { job_id?: string; video_id?: string },
): Promise<PostSource> {
  const field = ref.video_id !== undefined ? 'video_id' : 'job_id';
  const id = (ref.video_id ?? ref.job_id)!;
  const job =
    ref.video_id !== undefined
      ? await findAccountJobByVideo(db, accountId, ref.video_id)
      : await findAccountJob(db, accountId, ref.job_id!);
  if (!job) throw errors.videoNotFound(field, id);
  const artifacts = (job.artifacts ?? {}) as StoredArtifacts & {
    title?: string;
    description?: string;
    hashtags?: string[];
    durationSec?: number;
  };
  const video = artifacts.files?.find((f) => f.role === 'video');
  if (job.status !== 'completed' || !video || job.sandbox)
    throw errors.videoNotReady(field, id, job.sandbox ? 'a sandbox placeholder' : job.status);
  // The retention policy deleted its files: there is nothing left to post (checked before anything is charged).
  if (job.media_deleted_at) throw errors.mediaExpired();
  return {
    job_id: job.id,
    video_id: job.video_id,
    video_key: video.key,
    duration_sec: artifacts.durationSec ?? 0,
    ...(artifacts.title ? { title: artifacts.title } : {}),
    ...(artifacts.description ? { description: artifacts.description } : {}),
    ...(artifacts.hashtags ? { hashtags: artifacts.hashtags } : {}),
  };
}
