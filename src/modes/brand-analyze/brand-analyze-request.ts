import { z } from 'zod';

// POST /brand/analyze (spec 2 §4.2): { url, webhook_url? }; webhook_url is a platform field. The URL is
// normalized and checked against the outbound guard when the request is validated (brand-analyze-mode.ts), by
// the crawler's own rule, so a re-analysis of the same site is found by the same form.

const URL_RULE = 'must be a domain (example.com) or an https URL of 3-2048 characters';

export const brandAnalyzeRequestSchema = z.strictObject({
  url: z.string().min(3, URL_RULE).max(2048, URL_RULE),
});

/**
 * The parsed body, plus what validation found: the normalized URL, the account's latest ready analysis of it
 * (`previous_brand_id`) and whether that analysis' crawl is recent enough to answer from (`warm`).
 */
export type BrandAnalyzeRequest = z.infer<typeof brandAnalyzeRequestSchema> & {
  previous_brand_id?: string | null;
  warm?: boolean;
};
