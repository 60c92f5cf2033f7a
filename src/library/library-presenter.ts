// A library video record (spec 2 §2.5) from the job that made it. Status follows the job; the copy (title,
// description, length) is the job's artifacts, or for a clip its own entry of artifacts.clips; customer, brand
// and purpose are read from the request the job was accepted with (for a revision, the request of the video
// it revises). Decisions: docs/library.md.
import { LINK_TTL_SECONDS, type StoredArtifacts, type StoredFile } from '../platform/jobs/job-presenter.ts';
import { OPEN_STATUSES, type JobStatus } from '../platform/jobs/job-status.ts';
import type { MediaStore } from '../platform/storage/media-store.ts';
import { libraryModeOf, MULTI_VIDEO_OPERATIONS, videoSource } from './library-modes.ts';
import type { LibraryRow } from './library-repo.ts';
import {
  DESCRIPTION_MAX,
  TITLE_MAX,
  type LibraryStatus,
  type LibraryVideo,
  type MediaAccess,
  type MediaUnavailableReason,
} from './library-video.ts';

/** Request fields that say what a video is about, in the order they are tried for a title. */
const TITLE_FIELDS = ['topic', 'prompt', 'quote', 'article_title', 'script'] as const;
/** The spec's media_access.video_urls holds at most 20 links. */
const MAX_VIDEO_URLS = 20;

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function upTo(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max);
}

/** Spec 2 §2.5 has three states: open jobs are processing; failed, dead-lettered and cancelled jobs failed. */
export function libraryStatus(jobStatus: string): LibraryStatus {
  if (jobStatus === 'completed') return 'completed';
  return OPEN_STATUSES.includes(jobStatus as JobStatus) ? 'processing' : 'failed';
}

function requestTitle(request: Json): string {
  for (const field of TITLE_FIELDS) {
    const value = text(request[field]);
    if (value) return value.replace(/\s+/g, ' ');
  }
  return text(record(request.source_video)?.title) ?? '';
}

/** The saved kit the job rendered with (a snapshot taken when it was accepted). */
function kitOf(request: Json): Json | undefined {
  const kit = record(request.brand_kit);
  return kit && kit.source !== 'would_build' ? kit : undefined;
}

function compact<T extends Json>(value: T): Partial<T> | null {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : null;
}

function customerOf(request: Json): LibraryVideo['metadata']['customer'] {
  const customerId = text(request.customer_id);
  if (!customerId) return null;
  return {
    customer_id: customerId,
    website_url: text(kitOf(request)?.website_url) ?? text(request.website_url) ?? null,
  };
}

/** The per-request brand wins over the kit field by field, as when the video was rendered (spec 1 §2.7). */
function brandOf(request: Json): LibraryVideo['metadata']['brand'] {
  const kit = kitOf(request);
  const inline = record(request.brand);
  return compact({
    brand_id: text(kit?.brand_id) ?? text(request.brand_id),
    name: text(inline?.name) ?? text(kit?.name),
    website_url: text(inline?.website_url) ?? text(kit?.website_url),
    tone: text(inline?.tone) ?? text(record(kit?.profile)?.tone),
    primary_color: text(inline?.primary_color) ?? text(kit?.primary_color),
  });
}

/** What one video of a job is: its copy and its files. */
interface VideoPart {
  title: string | undefined;
  description: string | undefined;
  durationSec: number | undefined;
  videos: StoredFile[];
  poster: StoredFile | undefined;
}

function partOf(job: LibraryRow, operation: string, index: number): VideoPart {
  const artifacts: StoredArtifacts = job.artifacts ?? {};
  const files = artifacts.files ?? [];
  const clip = MULTI_VIDEO_OPERATIONS.includes(operation) ? record(artifacts.clips?.[index]) : undefined;
  if (clip) {
    const ofClip = (role: StoredFile['role']) =>
      files.filter((f) => f.role === role && (f.index ?? 0) === index);
    return {
      title: text(clip.title),
      description: text(clip.description),
      durationSec: typeof clip.durationSec === 'number' ? clip.durationSec : undefined,
      videos: ofClip('clip'),
      poster: ofClip('clip_thumbnail')[0],
    };
  }
  return {
    title: text(artifacts.title),
    description: text(artifacts.description),
    durationSec: typeof artifacts.durationSec === 'number' ? artifacts.durationSec : undefined,
    videos: files.filter((f) => f.role === 'video'),
    poster: files.find((f) => f.role === 'thumbnail'),
  };
}

function unavailable(reason: MediaUnavailableReason): MediaAccess {
  return { status: 'unavailable', reason, video_cdn_url: null, poster_cdn_url: null };
}

/** Signed links, valid 24 h like every link of the service; each read signs fresh ones. */
function mediaAccess(
  status: LibraryStatus,
  part: VideoPart,
  store: MediaStore,
  now: Date,
  expired: boolean,
): MediaAccess {
  if (status === 'processing') return unavailable('VIDEO_PROCESSING');
  if (status === 'failed') return unavailable('VIDEO_FAILED');
  if (part.videos.length === 0) return unavailable('VIDEO_FILE_MISSING');
  if (expired) return unavailable('MEDIA_EXPIRED');
  const signed = part.videos.slice(0, MAX_VIDEO_URLS).map((f) => store.sign(f.key, LINK_TTL_SECONDS, now));
  return {
    status: 'available',
    private: true,
    video_url: signed[0]!.url,
    video_urls: signed.map((link) => link.url),
    poster_url: part.poster ? store.sign(part.poster.key, LINK_TTL_SECONDS, now).url : null,
    expires_at: signed[0]!.expiresAt.toISOString(),
  };
}

export interface PresentOptions {
  /** False on the single-video read, which issues no media links (spec 2 §4.4). */
  links: boolean;
  now?: Date;
}

/** One library video: the job's own (index 0), or clip n of a completed clip job (index n). */
export function presentLibraryVideo(
  job: LibraryRow,
  store: MediaStore,
  options: PresentOptions,
): LibraryVideo {
  const index = job.video_index;
  const { operation } = videoSource(job);
  const { request } = videoSource({ mode: job.origin_mode, request: job.origin_request });
  const mode = libraryModeOf(operation);
  if (!mode) throw new Error(`job ${job.job_id} (${operation}) makes no library video`);
  const status = libraryStatus(job.status);
  const part = partOf(job, operation, index);
  return {
    video_id: job.video_id,
    account_id: job.account_id,
    mode,
    status,
    metadata: {
      title: upTo(part.title ?? requestTitle(request), TITLE_MAX),
      description: upTo(part.description ?? '', DESCRIPTION_MAX),
      duration_seconds: part.durationSec ?? null,
      // No generation route takes an external id yet (the business preview only validates one).
      external_id: null,
      customer: customerOf(request),
      brand: brandOf(request),
      content_purpose: text(request.content_purpose) ?? null,
    },
    media_access: options.links
      ? mediaAccess(status, part, store, options.now ?? new Date(), job.media_deleted_at !== null)
      : unavailable('PRIVATE_DELIVERY_NOT_INTEGRATED'),
    created_at: job.created_at.toISOString(),
    updated_at: job.updated_at.toISOString(),
    job_id: job.job_id,
    operation,
    ...(mode === 'clipping' ? { clip_index: index } : {}),
  };
}
