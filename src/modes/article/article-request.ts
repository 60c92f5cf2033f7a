import { z } from 'zod';
import { userUrl } from '../../platform/net/user-url.ts';
import { CONTENT_PURPOSES, CONTENT_STYLES, PLATFORMS } from '../shared/enums.ts';
import {
  captionStyleSchema,
  clipTypeSchema,
  ctaSchema,
  footageKeywords,
  languageSchema,
  musicSchema,
  progressBarSchema,
} from '../shared/field-schemas.ts';
import { ignoreRequestBrand } from '../shared/account-brand.ts';
import { kitSelectionShape, type KitChoice } from '../shared/brand-kit-selection.ts';
import { prepareStockBody, STOCK_ALIASES } from '../stock/stock-request.ts';

/** Aliases of spec 1 §4.7, on top of the renames every stock-engine body accepts. */
export const ARTICLE_ALIASES: Record<string, string> = {
  ...STOCK_ALIASES,
  url: 'article_url',
  source_url: 'article_url',
  title: 'article_title',
  headline: 'article_title',
  article_markdown: 'article_text',
  markdown: 'article_text',
  content: 'article_text',
  summary: 'article_summary',
  excerpt: 'article_summary',
  cta: 'cta_text',
};

export function prepareArticleBody(body: Record<string, unknown>, warnings: string[]): void {
  ignoreRequestBrand(body, warnings, '/blog-to-video');
  prepareStockBody(body, warnings);
}

const labels = z.array(z.string().trim().min(1).max(60)).max(30);

export const articleRequestSchema = z
  .object({
    // Recorded, never fetched; held to the same rules as every user URL (spec 1 §7: non-https or internal is 400).
    article_url: userUrl.optional(),
    article_title: z.string().trim().min(1).max(300).optional(),
    // Any length is accepted; only the first 6000 characters are read.
    article_text: z.string().trim().min(1).max(200_000).optional(),
    article_summary: z.string().trim().min(1).max(5000).optional(),
    script: z.string().trim().min(1).max(20_000).optional(),
    cta_text: ctaSchema.optional(),
    asset_urls: z.array(userUrl).max(20).default([]),
    categories: labels.default([]),
    tags: labels.default([]),
    platforms: z.array(z.enum(PLATFORMS)).max(PLATFORMS.length).default([]),
    duration_sec: z.number().min(15).max(120).default(30),
    aspect_ratio: z.literal('9:16').default('9:16'),
    content_style: z.enum(CONTENT_STYLES).optional(),
    content_purpose: z.enum(CONTENT_PURPOSES).optional(),
    clip_type: clipTypeSchema.optional(),
    footage_keywords: footageKeywords.default([]),
    exclude_keywords: footageKeywords.default([]),
    voice_id: z.string().min(1).max(100).optional(),
    voice_gender: z.enum(['female', 'male']).optional(),
    voice_speed: z.number().min(0.7).max(1.3).default(1),
    language: languageSchema.optional(),
    caption_language: languageSchema.optional(),
    captions: z.boolean().default(true),
    caption_style: captionStyleSchema.optional(),
    music: musicSchema.default({ enabled: true, volume: 0.35 }),
    include_hook: z.boolean().optional(),
    include_branding: z.boolean().default(true),
    progress_bar: progressBarSchema.default({ enabled: false, position: 'bottom' }),
    ...kitSelectionShape,
  })
  .superRefine((body, ctx) => {
    if (
      !body.article_url &&
      !body.article_title &&
      !body.article_text &&
      !body.article_summary &&
      !body.script
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['article_text'],
        message:
          'send at least one of article_url, article_title, article_text (or article_markdown), article_summary or script',
      });
    }
  })
  .transform((body) => ({
    ...body,
    caption_style: body.captions
      ? (body.caption_style ?? captionStyleSchema.parse('highlight'))
      : captionStyleSchema.parse('none'),
  }));

export type ArticleRequest = z.infer<typeof articleRequestSchema> & { brand_kit?: KitChoice };

/** Words of an article address's last path segment ("/2024/05/how-to-brew-coffee.html" → "how to brew coffee"). */
export function topicFromUrl(url: string): string | undefined {
  const { pathname } = new URL(url);
  const segment = pathname
    .split('/')
    .filter(Boolean)
    .reverse()
    .find((s) => /[a-z]{3,}/i.test(s));
  if (!segment) return undefined;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape is read as written.
  }
  const words = decoded
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .split(/[-_+\s.]+/)
    .filter((w) => /[a-z]/i.test(w) && !/^\d+$/.test(w));
  return words.length > 0 ? words.join(' ').toLowerCase() : undefined;
}
