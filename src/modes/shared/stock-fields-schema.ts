import { z } from 'zod';
import { userUrl } from '../../platform/net/user-url.ts';
import { CONTENT_PURPOSES, CONTENT_STYLES, PLATFORMS } from './enums.ts';
import {
  captionStyleSchema,
  clipTypeSchema,
  ctaSchema,
  footageKeywords,
  languageSchema,
  musicSchema,
  progressBarSchema,
} from './field-schemas.ts';

/** The fields of spec 1 §4.2 that /generate-and-post and Magic both take (each adds its own around them). */
export const stockFieldShape = {
  prompt: z.string().trim().min(1).max(1000).optional(),
  topic: z.string().trim().min(1).max(500).optional(),
  script: z.string().trim().min(1).max(20_000).optional(),
  content_purpose: z.enum(CONTENT_PURPOSES).optional(),
  duration_sec: z.number().min(15).max(120).default(30),
  clip_type: clipTypeSchema.optional(),
  // No default: without one the writer takes the brand kit's tone (else the brand's, else professional).
  content_style: z.enum(CONTENT_STYLES).optional(),
  include_branding: z.boolean().default(true),
  footage_keywords: footageKeywords.default([]),
  exclude_keywords: footageKeywords.default([]),
  asset_urls: z.array(userUrl).max(20).default([]),
  caption_style: captionStyleSchema.optional(),
  captions: z.boolean().default(true),
  caption_language: languageSchema.optional(),
  music: musicSchema.default({ enabled: true, volume: 0.35 }),
  voice_id: z.string().min(1).max(100).optional(),
  voice_gender: z.enum(['female', 'male']).optional(),
  voice_speed: z.number().min(0.7).max(1.3).default(1),
  language: languageSchema.optional(),
  cta: ctaSchema.optional(),
  include_hook: z.boolean().optional(),
  progress_bar: progressBarSchema.default({ enabled: false, position: 'bottom' }),
  platforms: z.array(z.enum(PLATFORMS)).max(PLATFORMS.length).default([]),
  schedule_at: z.iso.datetime({ offset: true }).optional(),
};

/** `captions: false` equals preset none; a sent script disables cta and include_hook (spec 1 §4.2). */
export function normalizeStockFields<
  T extends { captions: boolean; caption_style?: z.infer<typeof captionStyleSchema>; script?: string },
>(body: T): Omit<T, 'caption_style'> & { caption_style: z.infer<typeof captionStyleSchema> } {
  return {
    ...body,
    caption_style: body.captions
      ? (body.caption_style ?? captionStyleSchema.parse('highlight'))
      : captionStyleSchema.parse('none'),
    ...(body.script ? { cta: undefined, include_hook: undefined } : {}),
  };
}
