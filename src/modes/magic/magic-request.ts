import { z } from 'zod';
import { kitSelectionShape, type KitChoice } from '../shared/brand-kit-selection.ts';
import { normalizeStockFields, stockFieldShape } from '../shared/stock-fields-schema.ts';
import { prepareStockBody, STOCK_ALIASES } from '../stock/stock-request.ts';
import { ignoreRequestBrand } from '../shared/account-brand.ts';

/** Magic reads the body of spec 1 §4.2 with the same renames. */
export const MAGIC_ALIASES: Record<string, string> = { ...STOCK_ALIASES };

/** Aspect ratios Magic accepts; the video is rendered 9:16 whatever is asked (spec 1 §4.8). */
export const MAGIC_ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;

export function prepareMagicBody(body: Record<string, unknown>, warnings: string[]): void {
  ignoreRequestBrand(body, warnings, '/videos/magic');
  prepareStockBody(body, warnings);
}

/**
 * The body of POST /videos/magic after aliases are folded: §4.2 without brand, delivery or webhook fields; a
 * saved brand kit may be selected instead of the account brand (spec 2 §4.8's quickstart takes brand_id).
 */
export const magicRequestSchema = z
  .object({
    ...stockFieldShape,
    aspect_ratio: z.enum(MAGIC_ASPECT_RATIOS).default('9:16'),
    ...kitSelectionShape,
  })
  .superRefine((body, ctx) => {
    if (!body.prompt && !body.topic) {
      ctx.addIssue({
        code: 'custom',
        path: ['topic'],
        message: 'send topic or prompt (a script alone is not enough on /videos/magic)',
      });
    }
  })
  .transform(normalizeStockFields);

export type MagicRequest = z.infer<typeof magicRequestSchema> & { brand_kit?: KitChoice };
