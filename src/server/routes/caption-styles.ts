import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { brandedCaptionPresets, type CaptionBrandKit } from '../../media/captions/branded-presets.ts';
import type { CaptionStyle } from '../../media/captions/caption-style.ts';
import {
  CAPTION_STYLE_CATEGORIES,
  CAPTION_STYLE_PRESETS,
  captionStyleById,
  captionStylePreset,
  type BrandableColor,
  type CaptionStylePreset,
  type ResolvedCaptionBrand,
} from '../../media/captions/style-catalogue.ts';
import { CaptionPreviewCache } from '../../media/captions/style-preview.ts';
import { brandIdSchema } from '../../brand/kits/kit-input.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { findAccount } from '../../platform/accounts/accounts.ts';
import { successBody } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

// Spec 2 §4.6: GET /resources/caption-styles, the 63 caption presets, and a rendered preview of each; the
// `branded` category is drawn for a brand: a saved kit (brand_id), colours and a font sent in the query, or the
// account's saved brand.

const BASE = '/api/v1/resources/caption-styles';

/** `#RRGGBB`; the `#` may be left out, since it has to be written %23 in a query string. */
const queryColor = z
  .string()
  .regex(/^#?[0-9A-Fa-f]{6}$/, 'must be a colour like #RRGGBB (write # as %23)')
  .transform((value) => `#${value.replace('#', '').toUpperCase()}`);

const brandQuery = {
  /** A saved brand kit of the account: its colours and font (the values below still win when sent). */
  brand_id: brandIdSchema.optional(),
  primary_color: queryColor.optional(),
  accent_color: queryColor.optional(),
  /** Any family name; the branded presets use it when the font catalogue has it. */
  font_family: z.string().trim().min(1).max(100).optional(),
};
type BrandQuery = { brand_id?: string; primary_color?: string; accent_color?: string; font_family?: string };
const listQuery = z.object({ ...brandQuery, category: z.enum(CAPTION_STYLE_CATEGORIES).optional() });
const previewQuery = z.object(brandQuery);

const DOCS = {
  list: {
    summary: 'Caption styles',
    description:
      'The caption presets with their look and a preview link; the branded ones drawn for a brand kit (brand_id), colours and a font from the query, or the account brand.',
    tags: ['Transcription'],
    query: listQuery,
    errors: ['BRAND_NOT_FOUND'],
  },
  preview: {
    summary: 'Caption style preview',
    description: 'A rendered PNG of one preset, branded as the query says.',
    tags: ['Transcription'],
    query: previewQuery,
    produces: ['image/png'],
    errors: ['NOT_FOUND', 'BRAND_NOT_FOUND'],
  },
} satisfies Record<string, RouteDocs>;

function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw invalidInputError(fieldIssues(result.error));
  return result.data;
}

const BRAND_FIELD_NAMES: Record<BrandableColor, string> = {
  primaryColor: 'text_color',
  highlightColor: 'highlight_color',
  outlineColor: 'outline_color',
  shadowColor: 'shadow_color',
};

function describeStyle(style: CaptionStyle) {
  return {
    font_family: style.fontFamily,
    font_size: style.fontSize,
    bold: style.bold,
    italic: style.italic,
    uppercase: style.uppercase,
    letter_spacing: style.letterSpacing,
    text_color: style.primaryColor,
    highlight_color: style.highlightColor,
    outline_color: style.outlineColor,
    border: style.border,
    outline_width: style.outlineWidth,
    outline_opacity: style.outlineOpacity ?? 1,
    shadow_color: style.shadowColor,
    shadow_depth: style.shadowDepth,
    shadow_opacity: style.shadowOpacity,
    blur: style.blur ?? 0,
    scale_x: style.scaleX ?? 100,
    rotation: style.rotation ?? 0,
    position: style.position,
    animation: style.animation,
    words_per_chunk: style.chunking.maxWords,
    max_chars_per_chunk: style.chunking.maxChars,
  };
}

/**
 * The brand the branded presets are drawn for: colours from the query, else the brand kit brand_id names (an
 * unknown or foreign one is 404 BRAND_NOT_FOUND), else the account's saved brand (the defaults fill what is
 * missing); the font from the query, else the kit's (the family its design renders with).
 */
async function brandOf(
  ctx: AppContext,
  request: FastifyRequest,
  query: BrandQuery,
): Promise<CaptionBrandKit> {
  if (query.brand_id !== undefined) {
    const { kit } = await ctx.brandKits.read(callerOf(request), query.brand_id);
    return {
      primary: query.primary_color ?? kit.colors.primary,
      accent: query.accent_color ?? kit.colors.accent,
      font_family: query.font_family ?? kit.font.family,
    };
  }
  let saved: Record<string, unknown> = {};
  if (query.primary_color === undefined || query.accent_color === undefined) {
    const account = await findAccount(ctx.db, callerOf(request).accountId);
    const brand = account?.brand;
    if (brand && typeof brand === 'object') saved = brand as Record<string, unknown>;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    primary: query.primary_color ?? text(saved.primary_color),
    accent: query.accent_color ?? text(saved.accent_color),
    font_family: query.font_family,
  };
}

/** Every preset's look, the branded ones drawn for `kit`. */
function looksFor(kit: CaptionBrandKit): {
  brand: ResolvedCaptionBrand;
  styleOf: (id: string) => CaptionStyle | undefined;
} {
  const { brand, styles } = brandedCaptionPresets(kit);
  const branded = new Map(styles.map((s) => [s.preset.id, s.style]));
  return { brand, styleOf: (id) => branded.get(id) ?? captionStyleById(id) };
}

/** A branded preset's preview names the brand it was listed for: the kit (and the query's own values), else the values. */
function previewUrl(
  ctx: AppContext,
  preset: CaptionStylePreset,
  brand: ResolvedCaptionBrand,
  query: BrandQuery,
): string {
  const url = `${ctx.config.publicBaseUrl}${BASE}/${preset.id}/preview.png`;
  if (!preset.brandColors) return url;
  const params = new URLSearchParams();
  if (query.brand_id !== undefined) {
    for (const key of ['brand_id', 'primary_color', 'accent_color', 'font_family'] as const) {
      const value = query[key];
      if (value !== undefined) params.set(key, value);
    }
  } else {
    params.set('primary_color', brand.primaryColor);
    params.set('accent_color', brand.accentColor);
    if (brand.fontFamily !== null) params.set('font_family', brand.fontFamily);
  }
  return `${url}?${params.toString()}`;
}

export function registerCaptionStyleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const cache = join(ctx.config.dataDir, 'cache');
  const previews = new CaptionPreviewCache({
    dir: join(cache, 'caption-previews'),
    fontsDir: () => captionFontsDir(cache),
  });

  app.get(BASE, { config: { rateLimit: 'metadata', docs: DOCS.list } }, async (request) => {
    const query = parse(listQuery, request.query);
    const { brand, styleOf } = looksFor(await brandOf(ctx, request, query));
    const listed = CAPTION_STYLE_PRESETS.filter((p) => !query.category || p.category === query.category);
    return successBody(
      {
        total: listed.length,
        categories: CAPTION_STYLE_CATEGORIES.map((id) => ({
          id,
          count: CAPTION_STYLE_PRESETS.filter((p) => p.category === id).length,
        })),
        brand_id: query.brand_id ?? null,
        brand_colors: { primary_color: brand.primaryColor, accent_color: brand.accentColor },
        brand_font_family: brand.fontFamily,
        styles: listed.map((preset) => ({
          id: preset.id,
          name: preset.name,
          category: preset.category,
          description: preset.description,
          style: describeStyle(styleOf(preset.id)!),
          brand_colors: preset.brandColors
            ? Object.fromEntries(
                Object.entries(preset.brandColors).map(([field, from]) => [
                  BRAND_FIELD_NAMES[field as BrandableColor],
                  from,
                ]),
              )
            : null,
          preview_url: previewUrl(ctx, preset, brand, query),
        })),
      },
      { request_id: request.id },
    );
  });

  app.get<{ Params: { id: string } }>(
    `${BASE}/:id/preview.png`,
    { config: { rateLimit: 'metadata', docs: DOCS.preview } },
    async (request, reply) => {
      const { id } = request.params;
      if (!captionStylePreset(id)) throw errors.notFound(`Caption style "${id}"`);
      const { styleOf } = looksFor(await brandOf(ctx, request, parse(previewQuery, request.query)));
      const png = await previews.png(id, styleOf(id)!);
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=86400')
        .send(png);
    },
  );
}
