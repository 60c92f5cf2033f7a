// The body of POST /b2b/validate (spec 2 §4.4, stock mode) with every rule the spec states; each violation
// is a field-named 400 INPUT_INVALID (through fieldIssues). URLs meet the outbound guard's syntax and address
// rules without being fetched or resolved. Which fields are required, and the limits the spec leaves open:
// docs/library.md.
import { z } from 'zod';
import { brandIdSchema } from '../brand/kits/kit-input.ts';
import { CONTENT_PURPOSES, TONES } from '../modes/shared/enums.ts';
import { hexColor } from '../modes/shared/field-schemas.ts';
import { userUrlProblem } from '../platform/net/user-url.ts';
import { PREVIEW_SCHEMA_VERSION } from './preview-contract.ts';

export const CAMPAIGN_OBJECTIVES = ['book_demo', 'lead_capture', 'website_visit', 'awareness'] as const;
export const PREVIEW_ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;
/** The stock video's length when input.duration_seconds is not sent, as on /generate-and-post. */
export const DEFAULT_DURATION_SECONDS = 30;

/** "is required" for a missing field, else what the value must be. */
const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const text = (min: number, max: number) =>
  z
    .string(expected('a string'))
    .min(min, `must be ${min}-${max} characters`)
    .max(max, `must be ${min}-${max} characters`)
    .refine((value) => value.length === 0 || value.trim().length > 0, 'must not be blank');

const id = brandIdSchema;

const httpsUrl = z
  .string(expected('an https URL'))
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    const problem = userUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const object = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape, expected('an object'));

/** A language tag such as en or pt-BR, 2-35 characters (one rule, so one message). */
const languageTag = z
  .string(expected('a language tag such as en or pt-BR'))
  .regex(
    /^(?=.{2,35}$)[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/,
    'must be a language tag of 2-35 characters such as en or pt-BR',
  );

export const previewValidateSchema = object({
  schema_version: z.literal(PREVIEW_SCHEMA_VERSION),
  external_id: text(1, 128),
  content_purpose: z.enum(CONTENT_PURPOSES),
  customer: object({
    customer_id: id,
    website_url: httpsUrl,
    name: text(1, 200).optional(),
    context_urls: z.array(httpsUrl, expected('an array')).max(10, 'must have at most 10 URLs').optional(),
  }),
  campaign: object({
    campaign_id: id,
    creative_id: id,
    objective: z.enum(CAMPAIGN_OBJECTIVES),
    audience: text(1, 1000),
    call_to_action: object({ text: text(1, 160), url: httpsUrl }),
  }),
  brand: object({
    brand_id: id.optional(),
    name: text(1, 80).optional(),
    website_url: httpsUrl.optional(),
    tone: z.enum(TONES).optional(),
    primary_color: hexColor.optional(),
    logo_asset_id: text(1, 128).optional(),
  })
    .refine((brand) => Object.keys(brand).length > 0, 'must contain at least one field')
    .optional(),
  output: object({
    aspect_ratio: z.enum(PREVIEW_ASPECT_RATIOS),
    resolution: z.enum(['1080p']),
    captions: z.boolean(expected('a boolean')),
    language: languageTag,
  }),
  delivery: object({
    visibility: z.enum(['private']),
    method: z.enum(['pull', 'webhook']),
    access: z.enum(['authenticated']),
    destination_id: id.optional(),
  }),
  budget: object({
    currency: z.enum(['USD']),
    max_cost_usd_cents: z
      .number(expected('a whole number of cents from 1 to 100000'))
      .int('must be a whole number of cents from 1 to 100000')
      .min(1, 'must be a whole number of cents from 1 to 100000')
      .max(100_000, 'must be a whole number of cents from 1 to 100000'),
  }),
  mode: z.enum(['stock']),
  input: object({
    topic: text(1, 1000),
    script: text(1, 2800).optional(),
    duration_seconds: z
      .number(expected('a number of seconds from 15 to 120'))
      .min(15, 'must be from 15 to 120 seconds')
      .max(120, 'must be from 15 to 120 seconds')
      .default(DEFAULT_DURATION_SECONDS),
    voice_id: text(1, 100).optional(),
    stock_keywords: z
      .array(text(1, 80), expected('an array'))
      .min(1, 'must have 1-12 keywords')
      .max(12, 'must have 1-12 keywords')
      .optional(),
  }),
});
export type PreviewRequest = z.infer<typeof previewValidateSchema>;
