import { z } from 'zod';
import { userUrlProblem } from '../../platform/net/user-url.ts';
import type { AspectRatio, ClipRequest } from './clip-request.ts';
import { clipCount } from './clip-request.ts';
import { MAX_URL_LENGTH, parseVideoUrl, VIDEO_URL_FORMS } from './vidsite-urls.ts';

// The body of the earlier-format POST /api/clip-video (spec 2 §4.9), turned into the clip job's request.
// video_type says where video_url points: 1 a remote file, 2 a video-sharing site, 3 cloud file storage,
// 4-12 other hosted-video sources. Here a video-site address is always downloaded from the video site, and
// every other address must be a public https link to the media file itself (a direct-download link for
// cloud storage and other hosts), fetched through the URL guard. Only type 2 insists on a video-site address.

export const VIDEO_TYPE_SITE = 2;

/** Earlier-format names of the output shape, lower-cased: Wide, Vertical and Fit and the spellings seen around them. */
export const FINAL_VIDEO_TYPES: Readonly<Record<string, AspectRatio>> = {
  wide: '16:9',
  landscape: '16:9',
  horizontal: '16:9',
  '16:9': '16:9',
  '16x9': '16:9',
  vertical: '9:16',
  portrait: '9:16',
  tall: '9:16',
  story: '9:16',
  reel: '9:16',
  short: '9:16',
  '9:16': '9:16',
  '9x16': '9:16',
  fit: '1:1',
  square: '1:1',
  '1:1': '1:1',
  '1x1': '1:1',
};

/** Earlier clients send numbers and booleans as strings too ("3", "true"). */
const numberLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*-?\d+\s*$/, 'must be a whole number')
    .transform((v) => Number(v)),
]);
const booleanLike = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const legacyClipRequestSchema = z
  .object({
    video_url: z.string().min(1).max(MAX_URL_LENGTH),
    user_id: z.union([z.string().min(1).max(200), z.number().int().transform(String)]),
    video_type: numberLike.pipe(z.number().int().min(1).max(12)).default(VIDEO_TYPE_SITE),
    finalVideo_type: z
      .string()
      .transform((v, ctx): AspectRatio => {
        const ratio = FINAL_VIDEO_TYPES[v.trim().toLowerCase()];
        if (ratio) return ratio;
        ctx.addIssue({ code: 'custom', message: 'must be one of: Wide, Vertical, Fit (or 16:9, 9:16, 1:1)' });
        return z.NEVER;
      })
      .default('9:16'),
    numberOfClips: numberLike.pipe(clipCount).default(3),
    captions: booleanLike.default(true),
    ext: z
      .string()
      .regex(/^\.?[A-Za-z0-9]{1,8}$/, 'must be a file extension such as mp4 or .mov')
      .transform((v) => v.replace(/^\./, '').toLowerCase())
      .optional(),
    // Accepted for compatibility: there are no clip templates here, so it changes nothing.
    templateId: z.union([z.number().int(), z.string().max(200)]).optional(),
  })
  .transform((body, ctx): ClipRequest => {
    const common = {
      clip_count: body.numberOfClips,
      aspect_ratio: body.finalVideo_type,
      captions: body.captions,
    };
    const video = parseVideoUrl(body.video_url);
    if (video.ok) {
      return {
        vidsite_url: video.value.url,
        ...common,
        source_video: { vidsite_video_id: video.value.videoId, title: null, url: video.value.url },
      };
    }
    if (body.video_type === VIDEO_TYPE_SITE) {
      ctx.addIssue({
        code: 'custom',
        path: ['video_url'],
        message: `${video.reason}; video_type 2 takes a video-site address: ${VIDEO_URL_FORMS}`,
      });
      return z.NEVER;
    }
    const problem = userUrlProblem(body.video_url);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['video_url'], message: problem });
      return z.NEVER;
    }
    return { media_url: body.video_url, ...(body.ext ? { media_ext: body.ext } : {}), ...common };
  });

/** The caller's `user_id` as sent (it is checked against the account before the body is validated). */
export function sentUserId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>).user_id;
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined;
}
