import type { JobRow } from '../db/schema.ts';
import type { Db, Executor } from '../db/database.ts';
import { newId } from '../ids.ts';
import { presentArtifacts } from '../jobs/job-presenter.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { MediaStore } from '../storage/media-store.ts';
import {
  findAccountDelivery,
  insertDelivery,
  supersedePending,
  type DeliveryWithAttempts,
} from './webhook-deliveries-repo.ts';

export interface WebhookEventNames {
  completed: string;
  failed: string;
  cancelled: string;
  /**
   * The event's `data` for modes whose callback has its own documented shape (e.g. transcript.completed,
   * brand.analyzed), from the job and its presented artifacts, with the store to sign links to files kept
   * outside the job (a brand's logo); the video shape of buildWebhookBody otherwise.
   */
  data?(job: JobRow, artifacts: Record<string, unknown>, store: MediaStore): Record<string, unknown>;
}

export const DEFAULT_EVENT_NAMES: WebhookEventNames = {
  completed: 'video.completed',
  failed: 'video.failed',
  cancelled: 'video.cancelled',
};

function eventType(job: JobRow, names: WebhookEventNames): string {
  if (job.status === 'completed') return names.completed;
  if (job.status === 'cancelled') return names.cancelled;
  return names.failed;
}

/** The `data` of a video job's callback. Private delivery carries no link. */
function videoEventData(job: JobRow, artifacts: Record<string, unknown>): Record<string, unknown> {
  const links = !job.private_delivery;
  const data: Record<string, unknown> = {
    job_id: job.id,
    video_id: job.video_id,
    operation: job.operation,
    status: job.status,
    video_url: links ? (artifacts.videoUrl ?? null) : null,
    video_urls: links ? (artifacts.videoUrls ?? []) : [],
    thumbnail_url: links ? (artifacts.thumbnailUrl ?? null) : null,
    title: artifacts.title ?? null,
    description: artifacts.description ?? null,
    duration_sec: artifacts.durationSec ?? null,
    error: job.error ?? null,
    agent_run_id: job.agent_run_id,
    poll_url: `/api/v1/jobs/${job.id}`,
  };
  if (links) data.artifacts = artifacts;
  return data;
}

/** The body of the one callback sent when a job ends. */
export function buildWebhookBody(
  job: JobRow,
  eventId: string,
  names: WebhookEventNames,
  store: MediaStore,
): Record<string, unknown> {
  const artifacts = presentArtifacts(job, store);
  const data = names.data ? names.data(job, artifacts, store) : videoEventData(job, artifacts);
  return { event_id: eventId, event_type: eventType(job, names), created_at: new Date().toISOString(), data };
}

/** Written in the transaction that ends the job, so a finished job always has its callback queued. */
export async function queueWebhook(
  tx: Executor,
  queue: JobQueue,
  store: MediaStore,
  job: JobRow,
  names: WebhookEventNames = DEFAULT_EVENT_NAMES,
): Promise<void> {
  if (!job.webhook_url) return;
  const eventId = newId.event();
  const payload = buildWebhookBody(job, eventId, names, store);
  const id = newId.webhookDelivery();
  await insertDelivery(tx, {
    id,
    eventId,
    accountId: job.account_id,
    jobId: job.id,
    url: job.webhook_url,
    eventType: String(payload.event_type),
    payload,
  });
  await queue.enqueueWebhook(tx, { deliveryId: id, attempt: 1 });
}

/**
 * Sends an account's event again as a new delivery: the same body and event id, signed afresh at each attempt.
 * A delivery of that event still being retried is superseded, so an event has one pending delivery at most.
 */
export async function redeliver(
  db: Db,
  queue: JobQueue,
  accountId: string,
  deliveryId: string,
): Promise<DeliveryWithAttempts | undefined> {
  return db.transaction().execute(async (tx) => {
    const source = await findAccountDelivery(tx, accountId, deliveryId);
    if (!source) return undefined;
    await supersedePending(tx, source.event_id);
    const id = newId.webhookDelivery();
    await insertDelivery(tx, {
      id,
      eventId: source.event_id,
      accountId,
      jobId: source.job_id,
      url: source.url,
      eventType: source.event_type,
      payload: source.payload,
    });
    await queue.enqueueWebhook(tx, { deliveryId: id, attempt: 1 });
    const created = await findAccountDelivery(tx, accountId, id);
    return created && { delivery: created, attempts: [] };
  });
}
