// How a publish job reads to its caller (spec 2 §3, §4.7): the fan-out statuses on top of the job status
// machine, the per-platform states, and the `job.completed` event. The job itself moves through the one
// status machine (src/platform/jobs/job-status.ts); these statuses are a view of it and of its platforms.
import type { Db } from '../../platform/db/database.ts';
import type { JobRow } from '../../platform/db/schema.ts';
import type { JobError } from '../../platform/errors.ts';
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import type { WebhookEventNames } from '../../platform/webhooks/webhook-events.ts';
import type { PlatformPostState } from './platform-posts-repo.ts';
import { platformPostRows, platformPostStates } from './platform-posts-repo.ts';

/** queued → (generating →) posting → completed | partial_success | failed; or cancelled. */
export type PublishStatus =
  'queued' | 'generating' | 'posting' | 'completed' | 'partial_success' | 'failed' | 'cancelled';

/** Spec 2 counts in credits of 5 US cents. */
const CENTS_PER_CREDIT = 5;

/**
 * The outcome of a publish job that ran to its end: every platform posted → completed; some → partial_success;
 * none → failed (the video exists and stays linked; the charge is kept, as the spec refunds only when the
 * video itself fails or the job is cancelled before it starts).
 */
export function finishedStatus(states: readonly PlatformPostState[]): PublishStatus {
  const posted = states.filter((s) => s.status === 'posted').length;
  if (posted === states.length) return 'completed';
  return posted > 0 ? 'partial_success' : 'failed';
}

/** A job that ended before posting: its platforms still queued read as failed with the job's error. */
function endedEarly(job: JobRow, states: PlatformPostState[]): PlatformPostState[] {
  const error = job.error as JobError | null;
  const failedAt = (job.finished_at ? new Date(job.finished_at) : new Date(job.updated_at)).toISOString();
  return states.map((state) =>
    state.status === 'queued'
      ? {
          ...state,
          status: 'failed',
          error_code: job.status === 'cancelled' ? 'CANCELLED' : (error?.code ?? 'JOB_FAILED'),
          error_message:
            job.status === 'cancelled'
              ? 'The job was cancelled before this platform was posted to.'
              : (error?.message ?? 'The job failed before this platform was posted to.'),
          failed_at: failedAt,
        }
      : state,
  );
}

function refundedCents(job: JobRow): number {
  return ['failed', 'dead_lettered', 'cancelled'].includes(job.status) ? job.price_cents : 0;
}

/** The job record's publish fields, read live (GET /jobs/{id}); `renders`: a fan-out job makes its video first. */
export async function describePublishJob(
  job: JobRow,
  db: Db,
  renders: boolean,
): Promise<Record<string, unknown>> {
  const rows = await platformPostRows(db, job.id);
  let platforms = await platformPostStates(db, job.id);
  let status: PublishStatus;
  switch (job.status) {
    case 'queued':
    case 'leased':
      status = 'queued';
      break;
    case 'running':
    case 'uploading':
      status =
        !renders || rows.some((r) => r.attempts > 0 || r.status !== 'queued') ? 'posting' : 'generating';
      break;
    case 'completed':
      status = finishedStatus(platforms);
      break;
    case 'cancelled':
      status = 'cancelled';
      platforms = endedEarly(job, platforms);
      break;
    default:
      status = 'failed';
      platforms = endedEarly(job, platforms);
  }
  return {
    kind: 'publish',
    status,
    lifecycle_status: job.status,
    platforms,
    credits_used: job.price_cents / CENTS_PER_CREDIT,
    credits_refunded: refundedCents(job) / CENTS_PER_CREDIT,
    ...(job.request && typeof job.request === 'object' && 'schedule_at' in job.request
      ? { schedule_at: (job.request as { schedule_at?: string }).schedule_at ?? null }
      : {}),
  };
}

/** What a finished publish job keeps in its artifacts, for the completion event (written by the pipeline). */
export interface PublishArtifacts {
  status: PublishStatus;
  platforms: PlatformPostState[];
}

/** Spec 2 §4.7 / §6: one `job.completed` event when the job ends, whatever its outcome (`data.status` says it). */
export const PUBLISH_EVENTS: WebhookEventNames = {
  completed: 'job.completed',
  failed: 'job.completed',
  cancelled: 'job.completed',
  data(job, artifacts, store) {
    const publish = artifacts.publish as PublishArtifacts | undefined;
    const targets = ((job.request as { targets?: { platform: string }[] } | null)?.targets ?? []).map(
      (t): PlatformPostState => ({ platform: t.platform as PlatformPostState['platform'], status: 'queued' }),
    );
    const ended = job.status === 'completed' && publish;
    const platforms = ended ? publish.platforms : endedEarly(job, targets);
    const links = !job.private_delivery;
    // A POST /post job links the video it posted; a fan-out job links the video it made.
    const sourceKey = (job.request as { source?: { video_key?: string } } | null)?.source?.video_key;
    const videoUrl = artifacts.videoUrl ?? (sourceKey ? store.sign(sourceKey, LINK_TTL_SECONDS).url : null);
    return {
      job_id: job.id,
      status: ended ? publish.status : job.status === 'cancelled' ? 'cancelled' : 'failed',
      video_url: links ? videoUrl : null,
      duration_sec: artifacts.durationSec ?? null,
      platforms,
      credits_used: job.price_cents / CENTS_PER_CREDIT,
      credits_refunded: refundedCents(job) / CENTS_PER_CREDIT,
      error: job.error ?? null,
      agent_run_id: job.agent_run_id,
      poll_url: `/api/v1/jobs/${job.id}`,
    };
  },
};
