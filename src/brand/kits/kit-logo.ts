// A logo the caller names by logo_url: fetched once through the URL guard, normalized, stored by content.
// Every failure is the logo module's 422 LOGO_UNREADABLE or LOGO_TOO_SMALL, with the reason. The fetcher and
// the normalizer (image, SVG and colour libraries) are imported on first use, not by every process that
// resolves kits.
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import type { StoredLogo } from './brand-kit.ts';

export async function fetchCallerLogo(
  url: string,
  deps: { guard: UrlGuard; store: MediaStore; signal?: AbortSignal },
): Promise<StoredLogo> {
  const [{ fetchLogo }, { normalizeLogo }, { storeLogo }] = await Promise.all([
    import('../logo/fetch-logo.ts'),
    import('../logo/normalize-logo.ts'),
    import('../analysis/logo-storage.ts'),
  ]);
  const fetched = await fetchLogo(url, deps.guard, deps.signal);
  const logo = await normalizeLogo(fetched.bytes, { contentType: fetched.contentType });
  return {
    key: await storeLogo(deps.store, logo.png),
    source_url: fetched.finalUrl,
    measurements: logo.measurements,
    colors: logo.colors,
  };
}
