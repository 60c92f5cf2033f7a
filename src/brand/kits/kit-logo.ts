// A logo the caller names by logo_url: fetched once through the URL guard, normalized, stored by content.
// Every failure is the logo module's 422 LOGO_UNREADABLE or LOGO_TOO_SMALL, with the reason.
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { storeLogo } from '../analysis/logo-storage.ts';
import { fetchLogo } from '../logo/fetch-logo.ts';
import { normalizeLogo } from '../logo/normalize-logo.ts';
import type { StoredLogo } from './brand-kit.ts';

export async function fetchCallerLogo(
  url: string,
  deps: { guard: UrlGuard; store: MediaStore; signal?: AbortSignal },
): Promise<StoredLogo> {
  const fetched = await fetchLogo(url, deps.guard, deps.signal);
  const logo = await normalizeLogo(fetched.bytes, { contentType: fetched.contentType });
  return {
    key: await storeLogo(deps.store, logo.png),
    source_url: fetched.finalUrl,
    measurements: logo.measurements,
    colors: logo.colors,
  };
}
