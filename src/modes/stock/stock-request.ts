import { z } from 'zod';
import { kitSelectionShape, type KitChoice } from '../shared/brand-kit-selection.ts';
import { brandSchema } from '../shared/field-schemas.ts';
import { normalizeStockFields, stockFieldShape } from '../shared/stock-fields-schema.ts';
import { foldCaptionAliases, foldMusicAliases, foldProgressBarAliases } from '../shared/nested-aliases.ts';

/** Renames of spec 1 §4.2 on top of the shared aliases of §4.1. */
export const STOCK_ALIASES: Record<string, string> = {
  clipType: 'clip_type',
  video_style: 'content_style',
  includeSvcBranding: 'include_branding',
  voiceGender: 'voice_gender',
  voice_language: 'language',
};

export function prepareStockBody(body: Record<string, unknown>, warnings: string[]): void {
  foldCaptionAliases(body, warnings);
  foldMusicAliases(body, warnings);
  foldProgressBarAliases(body, warnings);
}

/** The body of POST /generate-and-post after aliases are folded (platform fields are taken out before). */
export const stockRequestSchema = z
  .object({
    ...stockFieldShape,
    aspect_ratio: z.literal('9:16').default('9:16'),
    brand: brandSchema.optional(),
    ...kitSelectionShape,
  })
  .superRefine((body, ctx) => {
    if (!body.prompt && !body.topic && !body.script) {
      ctx.addIssue({
        code: 'custom',
        path: ['prompt'],
        message: 'send at least one of prompt, topic or script',
      });
    }
  })
  .transform(normalizeStockFields);

/** The validated body, with the brand kit it selects (set by the mode's validation, stored with the job). */
export type StockRequest = z.infer<typeof stockRequestSchema> & { brand_kit?: KitChoice };
