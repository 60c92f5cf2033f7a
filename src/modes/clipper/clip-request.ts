import { z } from 'zod';
import { CONTENT_PURPOSES, type ContentPurpose } from '../shared/enums.ts';
import {
  CHANNEL_URL_FORMS,
  parseChannelUrl,
  parseVideoUrl,
  VIDEO_URL_FORMS,
  type Checked,
} from './vidsite-urls.ts';

export const ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;
export const SELECTIONS = ['newest_first', 'oldest_first'] as const;
export const MAX_CLIPS = 10;

export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type Selection = (typeof SELECTIONS)[number];

/** The video a job clips (spec 1 §2.1 `data.source_video`). `title` is unknown until it is downloaded when the
 * caller named the video itself. */
export interface SourceVideo {
  vidsite_video_id: string;
  title: string | null;
  url: string;
}

/**
 * What a clip job runs from, whichever route accepted it. Exactly one source: `vidsite_url` (one video),
 * `channel_url` (the next unclipped upload, resolved into `source_video` before acceptance) or `media_url`
 * (a direct media file; only the earlier-format route /api/clip-video takes one).
 */
export interface ClipRequest {
  vidsite_url?: string;
  channel_url?: string;
  selection?: Selection;
  media_url?: string;
  /** File extension the caller gave for media_url (earlier-format `ext`). */
  media_ext?: string;
  clip_count: number;
  aspect_ratio: AspectRatio;
  captions: boolean;
  focus?: string;
  content_purpose?: ContentPurpose;
  source_video?: SourceVideo;
}

/** A URL field parsed into its reference; a refusal names the reason and the accepted forms. */
export function urlField<T>(parse: (raw: string) => Checked<T>, forms: string) {
  return z.string().transform((value, ctx): T => {
    const checked = parse(value);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: 'custom', message: `${checked.reason}; accepted forms: ${forms}` });
    return z.NEVER;
  });
}

export const clipCount = z.number().int('must be a whole number').min(1).max(MAX_CLIPS);

/** The body of POST /clipper/vidsite (spec 1 §4.3) after aliases are folded; unlisted fields are dropped. */
export const clipRequestSchema = z
  .object({
    vidsite_url: urlField(parseVideoUrl, VIDEO_URL_FORMS).nullish(),
    channel_url: urlField(parseChannelUrl, CHANNEL_URL_FORMS).nullish(),
    selection: z.enum(SELECTIONS).optional(),
    clip_count: clipCount.default(5),
    aspect_ratio: z.enum(ASPECT_RATIOS).default('9:16'),
    captions: z.boolean().default(true),
    focus: z.string().trim().min(1).max(250).optional(),
    content_purpose: z.enum(CONTENT_PURPOSES).optional(),
  })
  .superRefine((body, ctx) => {
    const sent = [body.vidsite_url, body.channel_url].filter((v) => v !== undefined && v !== null).length;
    if (sent !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [body.vidsite_url == null ? 'vidsite_url' : 'channel_url'],
        message:
          sent === 0
            ? 'send exactly one of vidsite_url (one video) or channel_url (a channel)'
            : 'send only one of vidsite_url or channel_url, not both',
      });
    }
  })
  .transform((body): ClipRequest => {
    const common = {
      clip_count: body.clip_count,
      aspect_ratio: body.aspect_ratio,
      captions: body.captions,
      ...(body.focus !== undefined ? { focus: body.focus } : {}),
      ...(body.content_purpose !== undefined ? { content_purpose: body.content_purpose } : {}),
    };
    if (body.channel_url) {
      return { channel_url: body.channel_url.url, selection: body.selection ?? 'newest_first', ...common };
    }
    const video = body.vidsite_url!;
    return {
      vidsite_url: video.url,
      ...common,
      source_video: { vidsite_video_id: video.videoId, title: null, url: video.url },
    };
  });
