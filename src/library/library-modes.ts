// Which jobs are library videos (spec 2 §2.5; docs/library.md), and under which library mode. The library
// holds every generated video; transcriptions, caption burn-ins, brand analyses and posts of finished videos
// make no new generated video and are not in it. A fan-out job renders one video with its inner operation
// (then posts it), so it is a library video of that operation's mode. A scene revision is a new video of the
// stock engine made from a finished one: a stock library video about what its source was about.

export const LIBRARY_MODES = ['stock', 'clipping', 'avatar', 'ai_video'] as const;
export type LibraryMode = (typeof LIBRARY_MODES)[number];

/** Job operation (the registry's mode name) → library mode. */
const LIBRARY_MODE_OF: Readonly<Record<string, LibraryMode>> = {
  stock: 'stock',
  magic: 'stock',
  motivational: 'stock',
  article: 'stock',
  news: 'stock',
  revision: 'stock',
  clip: 'clipping',
  ai_influencer: 'avatar',
  text_to_video: 'ai_video',
  image_to_video: 'ai_video',
};

/** The operations whose jobs are library videos. */
export const VIDEO_OPERATIONS: readonly string[] = Object.keys(LIBRARY_MODE_OF);

/** Operations whose one job makes several library videos: one per delivered clip. */
export const MULTI_VIDEO_OPERATIONS: readonly string[] = ['clip'];

/** The job mode of fan-out publish jobs, whose stored request holds `{ operation, request }` of the video. */
export const FANOUT_JOB_MODE = 'fanout';

/** The job mode of scene revisions, whose stored request names the revised job as `source_job_id`. */
export const REVISION_JOB_MODE = 'revision';

export function libraryModeOf(operation: string): LibraryMode | undefined {
  return Object.hasOwn(LIBRARY_MODE_OF, operation) ? LIBRARY_MODE_OF[operation] : undefined;
}

/** The operations that make videos of a library mode, in the order above. */
export function operationsOf(mode: LibraryMode): string[] {
  return VIDEO_OPERATIONS.filter((operation) => LIBRARY_MODE_OF[operation] === mode);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operation that rendered a job's video and the request it rendered (a fan-out job's inner ones). */
export function videoSource(job: { mode: string; request: unknown }): {
  operation: string;
  request: Record<string, unknown>;
} {
  const request = isRecord(job.request) ? job.request : {};
  if (job.mode !== FANOUT_JOB_MODE) return { operation: job.mode, request };
  return {
    operation: typeof request.operation === 'string' ? request.operation : job.mode,
    request: isRecord(request.request) ? request.request : {},
  };
}
