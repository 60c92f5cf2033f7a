// The hosted talking-photo engines of this build, from plain settings: a HeyGen key switches avatar_iv on, a
// D-ID key avatar_v. An engine without its key is not offered, and a request for it gets a free 400 naming what
// to configure (unconfiguredEngineMessage).

import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { DIdTalkingPhoto } from './d-id.ts';
import { HeyGenTalkingPhoto } from './heygen.ts';
import type { TalkingPhotoEngine, TalkingPhotoProvider } from './talking-photo.ts';

export interface AvatarProviderSettings {
  heygen?: { apiKey: string; baseUrl?: string };
  did?: { apiKey: string; baseUrl?: string };
  /** Time between status polls. */
  pollSeconds: number;
  /** The longest one render may take at the provider before the job fails (refunded). */
  timeoutSeconds: number;
}

export type AvatarProviders = Partial<Record<TalkingPhotoEngine, TalkingPhotoProvider>>;

/** The environment variables behind each engine, as the unconfigured-engine message names them. */
export const AVATAR_ENGINE_SETTINGS: Record<
  TalkingPhotoEngine,
  { provider: string; key: string; baseUrl: string }
> = {
  avatar_iv: { provider: 'HeyGen', key: 'HEYGEN_API_KEY', baseUrl: 'HEYGEN_BASE_URL' },
  avatar_v: { provider: 'D-ID', key: 'DID_API_KEY', baseUrl: 'DID_BASE_URL' },
};

export function createAvatarProviders(
  settings: AvatarProviderSettings,
  urlGuard: Pick<UrlGuard, 'request' | 'download'>,
): AvatarProviders {
  const common = {
    pollIntervalMs: settings.pollSeconds * 1000,
    timeoutMs: settings.timeoutSeconds * 1000,
    urlGuard,
  };
  const providers: AvatarProviders = {};
  if (settings.heygen) providers.avatar_iv = new HeyGenTalkingPhoto({ ...common, ...settings.heygen });
  if (settings.did) providers.avatar_v = new DIdTalkingPhoto({ ...common, ...settings.did });
  return providers;
}

/** The free 400 ENGINE_NOT_SUPPORTED message for an engine whose provider has no key in this build. */
export function unconfiguredEngineMessage(engine: TalkingPhotoEngine): string {
  const { provider, key, baseUrl } = AVATAR_ENGINE_SETTINGS[engine];
  return (
    `The ${engine} engine renders on ${provider}, which this server is not configured for: ` +
    `set ${key} (and ${baseUrl} to use another API host), then restart the service. Nothing was charged.`
  );
}
