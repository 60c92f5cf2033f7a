import type { PipelineServices } from '../../platform/modes/mode.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { brandSchema, type Brand } from './field-schemas.ts';

// Modes that always use the account's saved brand (Magic, article-to-video): the saved brand is read at
// render time, and a brand sent with the request is not part of these routes' bodies.

/** Fields that choose or carry a brand per request; on these routes they are ignored, with a warning each. */
const REQUEST_BRAND_FIELDS = ['brand', 'brand_id', 'customer_id', 'website_url'] as const;

export function ignoreRequestBrand(body: Record<string, unknown>, warnings: string[], route: string): void {
  for (const field of REQUEST_BRAND_FIELDS) {
    if (!(field in body)) continue;
    delete body[field];
    warnings.push(
      `"${field}" is ignored on ${route}: these videos always use the account brand (save it on your account).`,
    );
  }
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
