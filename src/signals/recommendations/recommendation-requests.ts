// The inputs of POST /news-broadcast/recommend (body) and GET /brand/{brand_id}/recommendations (query), every
// rule here, each violation a field-named 400 (spec 2 §4.1, §4.2; docs/signals.md).
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';
import { DEFAULT_HOOK_PLATFORM, HOOK_PLATFORMS } from '../hooks/hook-platforms.ts';
import { isCountryCode } from '../radar/country-code.ts';
import { DEFAULT_RECOMMEND_COUNT, MAX_RECOMMEND_COUNT } from './recommendation-weights.ts';

const MAX_BRAND_ID = 128;

const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const geoMessage = 'must be an ISO 3166-1 alpha-2 country code, e.g. US, GB, DE';
const geo = z
  .string(expected('a string'))
  .transform((code) => code.toUpperCase())
  .refine(isCountryCode, geoMessage)
  .default('US');

export const recommendRequestSchema = z.strictObject({
  brand_id: z
    .string(expected('a string'))
    .min(1, `must be 1-${MAX_BRAND_ID} characters`)
    .max(MAX_BRAND_ID, `must be 1-${MAX_BRAND_ID} characters`),
  platform: z.enum(HOOK_PLATFORMS).default(DEFAULT_HOOK_PLATFORM),
  count: z
    .number(expected(`an integer 1-${MAX_RECOMMEND_COUNT}`))
    .int(`must be an integer 1-${MAX_RECOMMEND_COUNT}`)
    .min(1, `must be an integer 1-${MAX_RECOMMEND_COUNT}`)
    .max(MAX_RECOMMEND_COUNT, `must be an integer 1-${MAX_RECOMMEND_COUNT}`)
    .default(DEFAULT_RECOMMEND_COUNT),
  /** Not in the spec's body: the country whose trends are read (default US, as on the radar). */
  geo,
});
export type RecommendRequest = z.infer<typeof recommendRequestSchema>;

export const planQuerySchema = z.strictObject({ geo });
export type PlanQuery = z.infer<typeof planQuerySchema>;

export function parseRecommendRequest(body: unknown): RecommendRequest {
  if (!isPlainObject(body))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const parsed = recommendRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}

export function parsePlanQuery(query: unknown): PlanQuery {
  const parsed = planQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}
