import { z } from 'zod';
import type { AspectRatio } from '../../media/clips/reframe.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import { NEWS_FORMATS } from './news-summary.ts';

// POST /videos/news keeps the camelCase body of spec 1 §4.8. The shared aliases that would rename its own
// fields (voiceId, aspectRatio, duration) are switched off with keepFields, and the snake_case spellings
// other routes use point at the camelCase fields instead.

export const NEWS_DURATIONS = { '30s': 30, '60s': 60, '90s': 90, '2min': 120 } as const;
export type NewsDuration = keyof typeof NEWS_DURATIONS;
/** Rendered at 1080×1920, 1920×1080 and 1080×1080. */
export const NEWS_ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const satisfies readonly AspectRatio[];

export const NEWS_KEEP_FIELDS = ['voiceId', 'aspectRatio', 'duration'];
export const NEWS_ALIASES: Record<string, string> = {
  voice: 'voiceId',
  voice_id: 'voiceId',
  aspect_ratio: 'aspectRatio',
  source_url: 'sourceUrl',
  background_music_url: 'backgroundMusicUrl',
};

/** Fields other stock-engine routes take that this route fixes: each is dropped with a warning. */
const NOT_CONFIGURABLE = [
  'captions',
  'caption_style',
  'include_captions',
  'caption_position',
  'caption_highlight_color',
  'brand',
  'brand_id',
  'customer_id',
  'website_url',
  'confirm_authorized',
  'logo_url',
];

export function prepareNewsBody(body: Record<string, unknown>, warnings: string[]): void {
  for (const field of NOT_CONFIGURABLE) {
    if (!(field in body)) continue;
    delete body[field];
    warnings.push(`"${field}" is ignored: captions and brand are not configurable on /videos/news.`);
  }
}

export const newsRequestSchema = z
  .object({
    sourceUrl: userUrl.optional(),
    niches: z.array(z.string().trim().min(1).max(80)).max(10).default([]),
    keywords: z.array(z.string().trim().min(1).max(100)).max(32).default([]),
    format: z.enum(NEWS_FORMATS).optional(),
    voiceId: z.string().min(1).max(100).optional(),
    backgroundMusicUrl: userUrl.optional(),
    aspectRatio: z.enum(NEWS_ASPECT_RATIOS).default('9:16'),
    duration: z.enum(Object.keys(NEWS_DURATIONS) as [NewsDuration, ...NewsDuration[]]).default('60s'),
  })
  .superRefine((body, ctx) => {
    if (!body.sourceUrl && body.niches.length === 0 && body.keywords.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['sourceUrl'],
        message: 'send sourceUrl, or niches or keywords to write the news about',
      });
    }
  })
  // One article is told as one story; without a source the service writes a digest of the topic.
  .transform((body) => ({
    ...body,
    format: body.format ?? (body.sourceUrl ? ('single' as const) : ('digest' as const)),
  }));

export type NewsRequest = z.infer<typeof newsRequestSchema>;
