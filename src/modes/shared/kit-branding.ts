import { join } from 'node:path';
import {
  refuseBannedBrief,
  scriptBrandContext,
  scriptLanguage,
  type ScriptBrandContext,
} from '../../media/script/brand-context.ts';
import type { PipelineServices, ValidationServices } from '../../platform/modes/mode.ts';
import { accountBrand } from './account-brand.ts';
import {
  isKitSnapshot,
  KIT_LOGO_FILE,
  selectBrandKit,
  type KitChoice,
  type KitSelectionFields,
  type KitSnapshot,
} from './brand-kit-selection.ts';
import type { Brand } from './field-schemas.ts';

// How a selected brand kit dresses a stock-engine video: its name, website and colours as the video's brand
// (caption highlight = accent, progress bar, the writer's brand), its normalized logo where a brand logo goes,
// its font for the captions, and its profile for the writer. A per-video `brand` sent with the kit overrides
// the kit field by field, as the request's own caption_style.highlight_color and progress_bar.color override
// both.

/** What the stock engine takes from the video's brand. */
export interface Branding {
  brand?: Brand;
  brandContext?: ScriptBrandContext;
  /** A logo file in the job's work folder, used instead of downloading brand.logo_url. */
  logoPath?: string;
  captionFont?: string;
  /** Where the brand came from, for artifacts.brand. */
  source: { source: 'kit'; brand_id: string; revision: number } | { source: 'request' | 'account' | 'none' };
}

/** The brand a kit gives a video, before any per-video override. */
function kitBrand(kit: KitSnapshot): Brand {
  return {
    name: kit.name,
    ...(kit.website_url ? { website_url: kit.website_url } : {}),
    primary_color: kit.primary_color,
    accent_color: kit.accent_color,
    ...(kit.profile.industry ? { industry: kit.profile.industry } : {}),
  };
}

/**
 * The writer's context from the kit's profile. A per-video brand that names its own tone or industry speaks
 * for this video, so the kit's are set aside for it.
 */
function kitContext(kit: KitSnapshot, inline: Brand | undefined): ScriptBrandContext {
  const context = scriptBrandContext(kit.profile);
  return {
    ...context,
    ...(inline?.tone ? { tone: undefined } : {}),
    ...(inline?.industry ? { industry: inline.industry } : {}),
  };
}

/** The branding of a video rendered with `kit` in `workDir`, a per-video brand overriding it field by field. */
export function kitBranding(kit: KitSnapshot, inline: Brand | undefined, workDir: string): Branding {
  return {
    brand: { ...kitBrand(kit), ...inline },
    brandContext: kitContext(kit, inline),
    ...(kit.logo && !inline?.logo_url ? { logoPath: join(workDir, KIT_LOGO_FILE) } : {}),
    captionFont: kit.font_family,
    source: { source: 'kit', brand_id: kit.brand_id, revision: kit.revision },
  };
}

/**
 * The branding a job renders with (spec 2.7): its kit, a brand sent with the kit overriding it field by field;
 * without a kit the brand sent with the request, else the account's saved brand, else none.
 */
export async function videoBranding(
  request: { brand_kit?: KitChoice; brand?: Brand },
  ctx: { workDir: string; services: PipelineServices },
): Promise<Branding> {
  if (isKitSnapshot(request.brand_kit)) return kitBranding(request.brand_kit, request.brand, ctx.workDir);
  if (request.brand) return plainBranding(request.brand, 'request');
  return plainBranding(await accountBrand(ctx.services), 'account');
}

/** A video's branding without a kit: a per-video brand, else the saved account brand, else none. */
export function plainBranding(brand: Brand | undefined, from: 'request' | 'account'): Branding {
  return brand ? { brand, source: { source: from } } : { source: { source: 'none' } };
}

/** The narration and script language: the request's, else the kit's first language, else English. */
export function videoLanguage(requested: string | undefined, kit: KitChoice | undefined): string {
  return scriptLanguage(requested, isKitSnapshot(kit) ? scriptBrandContext(kit.profile) : undefined) ?? 'en';
}

/**
 * Resolves the request's kit (free refusals before any charge) and refuses a brief that names one of the kit's
 * banned topics (422 BRAND_TOPIC_BANNED). `brief` maps the request's text fields to their values.
 */
export async function resolveKitForBrief(
  request: KitSelectionFields,
  services: ValidationServices,
  brief: Readonly<Record<string, string | undefined>>,
): Promise<KitChoice | undefined> {
  const kit = await selectBrandKit(request, services);
  if (isKitSnapshot(kit)) refuseBannedBrief(scriptBrandContext(kit.profile), brief);
  return kit;
}
