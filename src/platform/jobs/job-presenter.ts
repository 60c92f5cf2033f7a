import { extname } from 'node:path';
import type { JobRow } from '../db/schema.ts';
import type { OutputFile } from '../modes/mode.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { DeliveryWithAttempts } from '../webhooks/webhook-deliveries-repo.ts';
import { presentJobWebhook } from '../webhooks/webhook-delivery-presenter.ts';
import type { ProgressEvent } from './jobs-repo.ts';

/** Links to stored files are signed afresh on every read and live this long (spec: 24 h). */
export const LINK_TTL_SECONDS = 86_400;

/** A stored file as kept in jobs.artifacts.files (the key, never a URL: URLs are signed when read). */
export interface StoredFile extends Omit<OutputFile, 'path'> {
  key: string;
}

export interface StoredArtifacts extends Record<string, unknown> {
  files?: StoredFile[];
  clips?: Record<string, unknown>[];
}

function byIndex(a: StoredFile, b: StoredFile): number {
  return (a.index ?? 0) - (b.index ?? 0);
}

/** Spec 1 §2.3: artifacts with freshly signed links. */
export function presentArtifacts(job: JobRow, store: MediaStore, now = new Date()): Record<string, unknown> {
  const stored = (job.artifacts ?? {}) as StoredArtifacts;
  const { files = [], clips, ...rest } = stored;
  // Files the retention policy deleted keep their place in the record with a null link and the reason.
  const expired = job.media_deleted_at && files.length > 0;
  const link = (file: StoredFile | undefined) =>
    file ? (expired ? null : store.sign(file.key, LINK_TTL_SECONDS, now).url) : undefined;
  const videos = files.filter((f) => f.role === 'video');
  const clipFiles = files.filter((f) => f.role === 'clip').sort(byIndex);
  const out: Record<string, unknown> = { videoId: job.video_id, ...rest };
  if (files.length === 0 && Object.keys(rest).length === 0) return out;

  const main = videos[0] ?? clipFiles[0];
  if (main) out.videoUrl = link(main);
  if (videos.length + clipFiles.length > 0) out.videoUrls = [...videos, ...clipFiles].map((f) => link(f));
  const thumbnail = files.find((f) => f.role === 'thumbnail');
  if (thumbnail) out.thumbnailUrl = link(thumbnail);
  if (clips) {
    out.clips = clips.map((clip, index) => ({
      ...clip,
      videoUrl: link(clipFiles.find((f) => (f.index ?? 0) === index)),
      thumbnailUrl: link(files.find((f) => f.role === 'clip_thumbnail' && (f.index ?? 0) === index)),
    }));
  }
  const downloads = files.filter(
    (f) => f.role === 'subtitle' || f.role === 'transcript' || f.role === 'audio' || f.role === 'manifest',
  );
  const manifest = files.find((f) => f.role === 'manifest');
  if (manifest && rest.provenance && typeof rest.provenance === 'object')
    out.provenance = { ...rest.provenance, url: link(manifest) };
  if (downloads.length > 0) {
    out.output_files = downloads.map((f) => {
      const name = f.name ?? f.key.split('/').pop() ?? f.key;
      // The format a caller asked for (srt, vtt, json…) is the file's extension.
      return { name, format: extname(name).slice(1), content_type: f.contentType, url: link(f) };
    });
  }
  if (expired) {
    out.media_expired = {
      code: 'MEDIA_EXPIRED',
      expired_at: new Date(job.media_deleted_at!).toISOString(),
      message:
        "The files were deleted by the server's media retention policy (MEDIA_RETENTION_DAYS); links are null.",
    };
  } else if (job.private_delivery && files.length > 0) {
    out.delivery = {
      visibility: 'private',
      expires_at: new Date(Math.floor(now.getTime() / 1000) * 1000 + LINK_TTL_SECONDS * 1000).toISOString(),
    };
  }
  return out;
}

/**
 * Spec 1 §2.2: the job record served by GET /jobs/{id}. With `webhookDeliveries` (read for GET), a job with a
 * webhook_url also shows its callback's state and attempts.
 */
export function presentJob(
  job: JobRow,
  events: ProgressEvent[],
  store: MediaStore,
  now = new Date(),
  webhookDeliveries?: DeliveryWithAttempts[],
): Record<string, unknown> {
  return {
    id: job.id,
    kind: 'generation',
    operation: job.operation,
    status: job.status,
    attempts: job.attempts,
    progress: events.map((e) => ({
      at: e.at.toISOString(),
      stage: e.stage,
      message: e.message,
      percent: e.percent,
    })),
    artifacts: presentArtifacts(job, store, now),
    error: job.error ?? null,
    createdAt: new Date(job.created_at).toISOString(),
    updatedAt: new Date(job.updated_at).toISOString(),
    video_id: job.video_id,
    price_usd_cents: job.price_cents,
    sandbox: job.sandbox,
    listing: job.listing,
    ...(job.agent_run_id ? { agent_run_id: job.agent_run_id } : {}),
    ...(job.private_delivery
      ? { delivery: { visibility: 'private', link_ttl_seconds: LINK_TTL_SECONDS } }
      : {}),
    ...(job.webhook_url && webhookDeliveries
      ? { webhook: presentJobWebhook(job.webhook_url, webhookDeliveries) }
      : {}),
  };
}
