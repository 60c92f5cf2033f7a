import type { PipelineServices } from '../../platform/modes/mode.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { brandSchema, type Brand } from './field-schemas.ts';

// Modes that use the account's saved brand (Magic, article-to-video) unless the request selects a brand kit
// (brand_id or website_url): the saved brand is read at render time, and a per-video `brand` object is not
// part of these routes' bodies.

/** On these routes a per-video brand is ignored, with a warning. */
export function ignoreRequestBrand(body: Record<string, unknown>, warnings: string[], route: string): void {
  if (!('brand' in body)) return;
  delete body.brand;
  warnings.push(
    `"brand" is ignored on ${route}: these videos use the account brand, or the brand kit that brand_id or website_url selects.`,
  );
}

/**
 * The account's saved brand as a per-video brand (spec 2.7). Each field is checked on its own (URLs under the
 * guard's rules), so one bad saved value (say, a colour written as "red") drops that field instead of the
 * whole brand.
 */
export function sanitizeBrand(saved: Record<string, unknown> | null, urlGuard: UrlGuard): Brand | undefined {
  if (!saved) return undefined;
  const shape = brandSchema.shape;
  const brand: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (saved[key] === undefined || saved[key] === null) continue;
    const parsed = urlGuard.validating(() => schema.safeParse(saved[key]));
    if (parsed.success && parsed.data !== undefined) brand[key] = parsed.data;
  }
  return Object.keys(brand).length > 0 ? brand : undefined;
}

export async function accountBrand(
  services: Pick<PipelineServices, 'accountBrand' | 'urlGuard'>,
): Promise<Brand | undefined> {
  return sanitizeBrand(await services.accountBrand(), services.urlGuard);
}
