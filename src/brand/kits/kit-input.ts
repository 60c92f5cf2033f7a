// The request bodies of saved brand kits, with every rule of spec 2 §2.4 and §8. Each violation is a field-named
// 400 (through fieldIssues); URLs meet the outbound guard's address rules when the request is validated.
import { getDomain } from 'tldts';
import { z } from 'zod';
import { hexColor, languageSchema } from '../../modes/shared/field-schemas.ts';
import { bareHost } from '../../platform/net/url-syntax.ts';
import { userUrlProblem } from '../../platform/net/user-url.ts';
import { KIT_ID_PATTERN } from './kit-ids.ts';

export const KIT_STYLES = ['label', 'minimal', 'bold_backdrop', 'split'] as const;
export type KitStyle = (typeof KIT_STYLES)[number];
export const STYLE_CHOICES = [...KIT_STYLES, 'auto'] as const;
export type StyleChoice = (typeof STYLE_CHOICES)[number];
export const KIT_TONES = ['authoritative', 'friendly', 'provocative', 'technical', 'playful'] as const;
export type KitTone = (typeof KIT_TONES)[number];
export const PRESENTER_ENGINES = ['avatar_iii', 'avatar_iv', 'avatar_v'] as const;

export const BRAND_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const ID_RULE = '1-128 characters: letters, digits, _ . : -, starting with a letter or digit';
const LOGO_FORMATS = 'a PNG, JPG, WebP or SVG image';
// Image formats a logo URL may name by its extension that the normalizer does not read.
const OTHER_IMAGE_EXTENSIONS = new Set([
  'gif',
  'bmp',
  'tif',
  'tiff',
  'ico',
  'avif',
  'heic',
  'heif',
  'pdf',
  'psd',
]);

/** Brand and customer identifiers share one pattern (spec 2 §2.4). */
export const brandIdSchema = z.string().regex(BRAND_ID_PATTERN, `must be ${ID_RULE}`);

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

const list = <T extends z.ZodType>(item: T, min: number, max: number) =>
  z
    .array(item, expected('an array'))
    .min(min, `must have ${min}-${max} items`)
    .max(max, `must have ${min === 0 ? 'at most ' : `${min}-`}${max} items`);

function urlProblemIssue(value: string, ctx: z.RefinementCtx): void {
  const problem = userUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

const httpsUrl = z.string().max(2048, 'must be at most 2048 characters').superRefine(urlProblemIssue);

export interface Website {
  /** The site to crawl, always an absolute URL (a bare domain becomes https://domain/). */
  url: string;
  /** Registrable domain (eTLD+1); a loopback test server's host name. */
  domain: string;
}

/** The registrable domain of a URL the guard accepted. */
export function registrableDomain(url: URL): string {
  const host = bareHost(url);
  return getDomain(host) ?? host;
}

/**
 * A website as the caller wrote it: a domain ("acme.com"), or an http(s) URL. Plain http is read as https
 * (the guard fetches https only) unless the guard allows that URL as it is (a loopback test server).
 */
export function readWebsite(raw: string): Website | { problem: string } {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    return { problem: 'must be a domain or an http(s) URL' };
  const candidates =
    scheme === undefined
      ? [`https://${raw}`]
      : scheme === 'http'
        ? [raw, `https://${raw.slice('http://'.length)}`]
        : [raw];
  let problem = '';
  for (const candidate of candidates) {
    const found = userUrlProblem(candidate);
    if (found === undefined) {
      const url = new URL(candidate);
      return { url: url.toString(), domain: registrableDomain(url) };
    }
    problem ||= found;
  }
  return { problem };
}

const websiteSchema = z
  .string()
  .min(3, 'must be 3-2048 characters')
  .max(2048, 'must be 3-2048 characters')
  .transform((raw, ctx): Website => {
    const website = readWebsite(raw);
    if ('problem' in website) {
      ctx.addIssue({ code: 'custom', message: website.problem });
      return z.NEVER;
    }
    return website;
  });

const logoUrlSchema = httpsUrl.superRefine((value, ctx) => {
  let path: string;
  try {
    path = new URL(value).pathname;
  } catch {
    return; // already refused by the URL rules
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension && OTHER_IMAGE_EXTENSIONS.has(extension))
    ctx.addIssue({ code: 'custom', message: `must be ${LOGO_FORMATS}, not .${extension}` });
});

const colorSchema = hexColor.transform((value) => value.toUpperCase());

// Letters, digits, spaces and the punctuation real family names use; nothing that could end a CSS value.
const fontFamilySchema = text(2, 60).regex(
  /^[\p{L}\p{N}][\p{L}\p{N} .'&-]*$/u,
  "must be a font family name: letters, digits, spaces and . ' & -",
);

const icpSchema = z.strictObject(
  {
    roles: list(text(1, 80), 1, 10),
    company_size: text(1, 40).optional(),
    regions: list(text(1, 60), 0, 10).optional(),
    pains: list(text(1, 160), 1, 10),
  },
  expected('an object'),
);

const proofPointSchema = z.strictObject(
  {
    claim: text(1, 240),
    source_url: httpsUrl.optional(),
  },
  expected('an object'),
);

const ctaSchema = z.strictObject(
  {
    text: text(1, 160),
    url: httpsUrl.optional(),
  },
  expected('an object'),
);

const presenterSchema = z.strictObject(
  {
    avatar_id: text(1, 64),
    voice_id: text(1, 100).optional(),
    engine: z.enum(PRESENTER_ENGINES).optional(),
  },
  expected('an object'),
);

/** The kit's private client profile (spec 2 §2.4, limits of §8). */
const profileShape = {
  industry: text(1, 80),
  icp: icpSchema,
  offer: text(1, 240),
  tone: z.enum(KIT_TONES),
  proof_points: list(proofPointSchema, 0, 20),
  banned_topics: list(text(1, 80), 0, 30),
  cta: ctaSchema,
  default_presenter: presenterSchema,
  languages: list(languageSchema, 1, 5),
  topic_pool: list(text(1, 120), 1, 20),
};

export const profileSchema = z.strictObject(profileShape).partial();
export type KitProfile = z.infer<typeof profileSchema>;
export type ProfileKey = keyof typeof profileShape;
export const PROFILE_KEYS = Object.keys(profileShape) as ProfileKey[];

const designShape = {
  name: text(1, 80),
  logo_url: logoUrlSchema,
  primary_color: colorSchema,
  accent_color: colorSchema,
  font_family: fontFamilySchema,
  style: z.enum(STYLE_CHOICES),
};
/** The kit fields a caller sets (and so locks against re-crawls), besides the profile. */
export type DesignKey = keyof typeof designShape;
export const DESIGN_KEYS = Object.keys(designShape) as DesignKey[];

export const createKitSchema = z
  .strictObject({
    brand_id: brandIdSchema.optional(),
    customer_id: brandIdSchema.optional(),
    website_url: websiteSchema.optional(),
    refresh: z.boolean().optional(),
    confirm_authorized: z.boolean().optional(),
    ...z.strictObject(designShape).partial().shape,
    profile: profileSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.website_url === undefined)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required unless website_url is sent' });
    if (body.refresh === true && (body.website_url === undefined || body.name !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['refresh'],
        message: 'needs website_url without name (it re-crawls the kit built from that site)',
      });
  });
export type CreateKitInput = z.infer<typeof createKitSchema>;

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** PATCH: any field of the create body; null clears a field (and unlocks it: a re-crawl may fill it). */
export const updateKitSchema = z.strictObject({
  customer_id: nullable(brandIdSchema),
  website_url: nullable(websiteSchema),
  refresh: z.boolean().optional(),
  confirm_authorized: z.boolean().optional(),
  name: nullable(designShape.name),
  logo_url: nullable(designShape.logo_url),
  primary_color: nullable(designShape.primary_color),
  accent_color: nullable(designShape.accent_color),
  font_family: nullable(designShape.font_family),
  style: nullable(designShape.style),
  profile: nullable(
    z.strictObject(
      Object.fromEntries(PROFILE_KEYS.map((key) => [key, nullable(profileShape[key])])) as {
        [K in ProfileKey]: z.ZodOptional<z.ZodNullable<(typeof profileShape)[K]>>;
      },
    ),
  ),
});
export type UpdateKitInput = z.infer<typeof updateKitSchema>;

export const listKitsQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .default(20),
  cursor: z
    .string()
    .regex(KIT_ID_PATTERN, 'must be the next_cursor of an earlier page (24 hex characters)')
    .optional(),
  customer_id: brandIdSchema.optional(),
});
export type ListKitsQuery = z.infer<typeof listKitsQuerySchema>;
