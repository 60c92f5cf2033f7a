import { z } from 'zod';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { TREND_CATEGORIES, type TrendCategory } from '../sources/source-item.ts';
import { isCountryCode } from './country-code.ts';

// The query parameters of GET /trends/radar and GET /trends/breaking (spec 2 §4.1, §8), with their defaults and
// limits. Query values arrive as text; each is checked as text first so that "", " " or "1e2" are refused
// rather than read as numbers.

export const MAX_WINDOW_HOURS = 168;
/** Breaking news is "in the last 18 hours" (spec 2 §4.1): the default window of /trends/breaking. */
export const BREAKING_WINDOW_HOURS = 18;

export interface TrendsQuery {
  geo: string;
  category: TrendCategory | undefined;
  limit: number;
  minVirality: number;
  windowHours: number;
}

function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,4}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
}

const minVirality = z
  .string()
  .regex(/^(\d+(\.\d*)?|\.\d+)$/, 'must be a number from 0 to 1')
  .transform(Number)
  .pipe(z.number().min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1'))
  .default(0.5);

const geo = z
  .string()
  .transform((code) => code.toUpperCase())
  .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. US, GB, DE')
  .default('US');

const commonFields = {
  geo,
  category: z.enum(TREND_CATEGORIES).optional(),
  limit: wholeNumber(1, 100).default(20),
  min_virality: minVirality,
};

export const radarSchema = z.strictObject({
  ...commonFields,
  window_hours: wholeNumber(1, MAX_WINDOW_HOURS).default(24),
});

/** /trends/breaking takes the radar's parameters; its window defaults to 18 hours and is also spelled windowHours. */
export const breakingSchema = z.strictObject({
  ...commonFields,
  window_hours: wholeNumber(1, MAX_WINDOW_HOURS).optional(),
  windowHours: wholeNumber(1, MAX_WINDOW_HOURS).optional(),
});

function parsed<T>(schema: z.ZodType<T>, query: unknown): T {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw invalidInputError(fieldIssues(result.error));
  return result.data;
}

export function parseRadarQuery(query: unknown): TrendsQuery {
  const q = parsed(radarSchema, query);
  return {
    geo: q.geo,
    category: q.category,
    limit: q.limit,
    minVirality: q.min_virality,
    windowHours: q.window_hours,
  };
}

/**
 * `windowHours` (the spelling spec 2 §4.1 gives for breaking) and `window_hours` are one parameter; when both
 * are sent, `window_hours` wins, as canonical names do everywhere, and a warning says so.
 */
export function parseBreakingQuery(query: unknown): { query: TrendsQuery; warnings: string[] } {
  const q = parsed(breakingSchema, query);
  const warnings =
    q.window_hours !== undefined && q.windowHours !== undefined && q.window_hours !== q.windowHours
      ? ['"windowHours" and "window_hours" were both sent; "window_hours" was used.']
      : [];
  return {
    query: {
      geo: q.geo,
      category: q.category,
      limit: q.limit,
      minVirality: q.min_virality,
      windowHours: q.window_hours ?? q.windowHours ?? BREAKING_WINDOW_HOURS,
    },
    warnings,
  };
}
