import type { Executor } from '../platform/db/database.ts';
import type { JobRow } from '../platform/db/schema.ts';
import { LINK_TTL_SECONDS, type StoredArtifacts } from '../platform/jobs/job-presenter.ts';
import type { MediaStore } from '../platform/storage/media-store.ts';

// Public listing (spec 1 §4.2 `listing`, docs/studio.md): only a finished, public, non-sandbox video is shown
// anywhere; everything else does not exist to a visitor. Media links are signed when a page is made.

/** How many videos the discovery page, the sitemap and the feed show: the newest ones. */
export const PUBLIC_PAGE_SIZE = 60;

export interface PublicVideo {
  videoId: string;
  title: string;
  description: string;
  hashtags: string[];
  durationSec: number | undefined;
  publishedAt: Date;
  videoUrl: string;
  posterUrl: string | undefined;
}

function publicJobs(ex: Executor) {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('listing', '=', 'public')
    .where('status', '=', 'completed')
    .where('sandbox', '=', false);
}

function present(job: JobRow, store: MediaStore, now: Date): PublicVideo | undefined {
  const artifacts = (job.artifacts ?? {}) as StoredArtifacts;
  const files = artifacts.files ?? [];
  const video = files.find((f) => f.role === 'video') ?? files.find((f) => f.role === 'clip');
  if (!video) return undefined;
  const poster = files.find((f) => f.role === 'thumbnail') ?? files.find((f) => f.role === 'clip_thumbnail');
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const description = text(artifacts.description);
  const hashtags = artifacts.hashtags;
  return {
    videoId: job.video_id,
    title: text(artifacts.title) || 'Untitled video',
    description,
    hashtags: Array.isArray(hashtags)
      ? hashtags.filter((tag): tag is string => typeof tag === 'string')
      : [...description.matchAll(/#[\p{L}\p{N}_]+/gu)].map((m) => m[0]),
    durationSec: typeof artifacts.durationSec === 'number' ? artifacts.durationSec : undefined,
    publishedAt: new Date(job.finished_at ?? job.updated_at),
    videoUrl: store.sign(video.key, LINK_TTL_SECONDS, now).url,
    posterUrl: poster ? store.sign(poster.key, LINK_TTL_SECONDS, now).url : undefined,
  };
}

export async function findPublicVideo(
  ex: Executor,
  store: MediaStore,
  videoId: string,
  now = new Date(),
): Promise<PublicVideo | undefined> {
  const job = await publicJobs(ex).where('video_id', '=', videoId).executeTakeFirst();
  return job && present(job, store, now);
}

export async function listPublicVideos(
  ex: Executor,
  store: MediaStore,
  now = new Date(),
): Promise<PublicVideo[]> {
  const jobs = await publicJobs(ex).orderBy('finished_at', 'desc').limit(PUBLIC_PAGE_SIZE).execute();
  return jobs.flatMap((job) => present(job, store, now) ?? []);
}
