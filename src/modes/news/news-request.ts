import { z } from 'zod';
import type { AspectRatio } from '../../media/clips/reframe.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import { isCountryCode } from '../../signals/radar/country-code.ts';
import type { ChosenStory } from '../../signals/stories/story-finder.ts';
import { NEWS_FORMATS, type NewsFormat } from './news-summary.ts';

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
  trend_id: 'trendId',
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

/**
 * What a news job runs from. Without `sourceUrl`, validation finds the real stories (`stories`, from the
 * trends radar or the cached trend `trendId`) before anything is charged; they are stored with the job, so the
 * pipeline narrates exactly the stories the dry run and the receipt were given.
 */
export interface NewsRequest {
  sourceUrl?: string;
  trendId?: string;
  niches: string[];
  keywords: string[];
  format: NewsFormat;
  /** ISO 3166-1 alpha-2 country whose trends are read (no effect with sourceUrl). */
  geo: string;
  voiceId?: string;
  backgroundMusicUrl?: string;
  aspectRatio: (typeof NEWS_ASPECT_RATIOS)[number];
  duration: NewsDuration;
  /** Set by validation, never by the caller. */
  stories?: ChosenStory[];
  /** Set by validation: partial failures of the trend reads (a category whose sources were down). */
  storyWarnings?: string[];
}

export const newsRequestSchema = z
  .object({
    sourceUrl: userUrl.optional(),
    trendId: z.string().trim().min(1).max(200).optional(),
    niches: z.array(z.string().trim().min(1).max(80)).max(10).default([]),
    keywords: z.array(z.string().trim().min(1).max(100)).max(32).default([]),
    format: z.enum(NEWS_FORMATS).optional(),
    geo: z
      .string()
      .transform((code) => code.toUpperCase())
      .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. US, GB, DE')
      .default('US'),
    voiceId: z.string().min(1).max(100).optional(),
    backgroundMusicUrl: userUrl.optional(),
    aspectRatio: z.enum(NEWS_ASPECT_RATIOS).default('9:16'),
    duration: z.enum(Object.keys(NEWS_DURATIONS) as [NewsDuration, ...NewsDuration[]]).default('60s'),
  })
  .superRefine((body, ctx) => {
    if (body.sourceUrl && body.trendId) {
      ctx.addIssue({
        code: 'custom',
        path: ['trendId'],
        message: 'send either sourceUrl (an article) or trendId (a trending story), not both',
      });
    }
    if (!body.sourceUrl && !body.trendId && body.niches.length === 0 && body.keywords.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['sourceUrl'],
        message: 'send sourceUrl, trendId, or niches or keywords to find a trending story',
      });
    }
  })
  // One article or one chosen trend is told as one story; a search by niches and keywords makes a digest.
  .transform((body): NewsRequest => ({
    ...body,
    format: body.format ?? (body.sourceUrl || body.trendId ? 'single' : 'digest'),
  }));
