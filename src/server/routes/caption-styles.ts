import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CaptionStyle } from '../../media/captions/caption-style.ts';
import {
  CAPTION_STYLE_CATEGORIES,
  CAPTION_STYLE_PRESETS,
  captionStyleById,
  captionStylePreset,
  resolveBrandColors,
  type BrandableColor,
  type CaptionBrandColors,
  type CaptionStylePreset,
} from '../../media/captions/style-catalogue.ts';
import { CaptionPreviewCache } from '../../media/captions/style-preview.ts';
import { findAccount } from '../../platform/accounts/accounts.ts';
import { successBody } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';

// Spec 2 §4.6: GET /resources/caption-styles, the 63 caption presets, and a rendered preview of each.

const BASE = '/api/v1/resources/caption-styles';

/** `#RRGGBB`; the `#` may be left out, since it has to be written %23 in a query string. */
const queryColor = z
  .string()
  .regex(/^#?[0-9A-Fa-f]{6}$/, 'must be a colour like #RRGGBB (write # as %23)')
  .transform((value) => `#${value.replace('#', '').toUpperCase()}`);

const brandQuery = {
  primary_color: queryColor.optional(),
  accent_color: queryColor.optional(),
};
const listQuery = z.object({ ...brandQuery, category: z.enum(CAPTION_STYLE_CATEGORIES).optional() });
const previewQuery = z.object(brandQuery);

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

/** Brand colours for branded presets: the query's, else the account's saved brand, else the defaults. */
async function brandColors(
  ctx: AppContext,
  request: FastifyRequest,
  query: { primary_color?: string; accent_color?: string },
): Promise<Required<CaptionBrandColors>> {
  let saved: Record<string, unknown> = {};
  if (query.primary_color === undefined || query.accent_color === undefined) {
    const account = await findAccount(ctx.db, callerOf(request).accountId);
    const brand = account?.brand;
    if (brand && typeof brand === 'object') saved = brand as Record<string, unknown>;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return resolveBrandColors({
    primaryColor: query.primary_color ?? text(saved.primary_color),
    accentColor: query.accent_color ?? text(saved.accent_color),
  });
}

function previewUrl(
  ctx: AppContext,
  preset: CaptionStylePreset,
  colors: Required<CaptionBrandColors>,
): string {
  const url = `${ctx.config.publicBaseUrl}${BASE}/${preset.id}/preview.png`;
  if (!preset.brandColors) return url;
  const query = new URLSearchParams({ primary_color: colors.primaryColor, accent_color: colors.accentColor });
  return `${url}?${query.toString()}`;
}

export function registerCaptionStyleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const previews = new CaptionPreviewCache({ dir: join(ctx.config.dataDir, 'cache', 'caption-previews') });

  app.get(BASE, { config: { rateLimit: 'metadata' } }, async (request) => {
    const query = parse(listQuery, request.query);
    const colors = await brandColors(ctx, request, query);
    const listed = CAPTION_STYLE_PRESETS.filter((p) => !query.category || p.category === query.category);
    return successBody(
      {
        total: listed.length,
        categories: CAPTION_STYLE_CATEGORIES.map((id) => ({
          id,
          count: CAPTION_STYLE_PRESETS.filter((p) => p.category === id).length,
        })),
        brand_colors: { primary_color: colors.primaryColor, accent_color: colors.accentColor },
        styles: listed.map((preset) => ({
          id: preset.id,
          name: preset.name,
          category: preset.category,
          description: preset.description,
          style: describeStyle(captionStyleById(preset.id, colors)!),
          brand_colors: preset.brandColors
            ? Object.fromEntries(
                Object.entries(preset.brandColors).map(([field, from]) => [
                  BRAND_FIELD_NAMES[field as BrandableColor],
                  from,
                ]),
              )
            : null,
          preview_url: previewUrl(ctx, preset, colors),
        })),
      },
      { request_id: request.id },
    );
  });

  app.get<{ Params: { id: string } }>(
    `${BASE}/:id/preview.png`,
    { config: { rateLimit: 'metadata' } },
    async (request, reply) => {
      const { id } = request.params;
      if (!captionStylePreset(id)) throw errors.notFound(`Caption style "${id}"`);
      const colors = await brandColors(ctx, request, parse(previewQuery, request.query));
      const png = await previews.png(id, captionStyleById(id, colors)!);
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=86400')
        .send(png);
    },
  );
}
