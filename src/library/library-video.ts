// The library video record (spec 2 §2.5) as served by GET /b2b/library/videos[/{video_id}]. These schemas
// document the answer (OpenAPI, /b2b/contracts result schemas); the presenter builds records of this shape.
import { z } from 'zod';
import { VIDEO_ID_PATTERN } from './library-ids.ts';
import { LIBRARY_MODES } from './library-modes.ts';

export const LIBRARY_STATUSES = ['processing', 'completed', 'failed'] as const;
export type LibraryStatus = (typeof LIBRARY_STATUSES)[number];

/**
 * Why a record carries no links. PRIVATE_DELIVERY_NOT_INTEGRATED is the spec's: the single-video read issues
 * no media links. The others are this service's, for list items that have no files to link to.
 */
export const MEDIA_UNAVAILABLE_REASONS = [
  'PRIVATE_DELIVERY_NOT_INTEGRATED',
  'VIDEO_PROCESSING',
  'VIDEO_FAILED',
  'VIDEO_FILE_MISSING',
  'MEDIA_EXPIRED',
] as const;
export type MediaUnavailableReason = (typeof MEDIA_UNAVAILABLE_REASONS)[number];

export const TITLE_MAX = 300;
export const DESCRIPTION_MAX = 5000;

const customerSchema = z.object({
  customer_id: z.string(),
  website_url: z.string().nullable(),
  name: z.string().optional(),
  context_urls: z.array(z.string()).max(10).optional(),
});

const brandSchema = z.object({
  brand_id: z.string().optional(),
  name: z.string().optional(),
  website_url: z.string().optional(),
  tone: z.string().optional(),
  primary_color: z.string().optional(),
  logo_asset_id: z.string().optional(),
});

export const mediaAccessSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('unavailable'),
    reason: z.enum(MEDIA_UNAVAILABLE_REASONS),
    video_cdn_url: z.null(),
    poster_cdn_url: z.null(),
  }),
  z.object({
    status: z.literal('available'),
    private: z.literal(true),
    video_url: z.string(),
    video_urls: z.array(z.string()).min(1).max(20),
    poster_url: z.string().nullable(),
    expires_at: z.iso.datetime(),
  }),
]);
export type MediaAccess = z.infer<typeof mediaAccessSchema>;

export const libraryVideoSchema = z.object({
  video_id: z.string().regex(VIDEO_ID_PATTERN),
  account_id: z.string(),
  mode: z.enum(LIBRARY_MODES),
  status: z.enum(LIBRARY_STATUSES),
  metadata: z.object({
    title: z.string().max(TITLE_MAX),
    description: z.string().max(DESCRIPTION_MAX),
    duration_seconds: z.number().nullable(),
    external_id: z.string().nullable(),
    customer: customerSchema.nullable(),
    brand: brandSchema.nullable(),
    content_purpose: z.string().nullable(),
  }),
  media_access: mediaAccessSchema,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** The job that made the video (GET /api/v1/jobs/{job_id}) and the route's operation, e.g. magic. */
  job_id: z.string(),
  operation: z.string(),
  /** Clipping only: the clip's position in the job's artifacts.clips (0 is the best clip). */
  clip_index: z.number().int().min(0).optional(),
});
export type LibraryVideo = z.infer<typeof libraryVideoSchema>;

export const libraryPageSchema = z.object({
  items: z.array(libraryVideoSchema).max(100),
  next_cursor: z.string().regex(VIDEO_ID_PATTERN).nullable(),
});
