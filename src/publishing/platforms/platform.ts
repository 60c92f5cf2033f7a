// What every publishing platform client offers, and the one place the five clients are built. The spec names the
// platforms by codename; each id maps to a real service: shortsite → TikTok, photosite → Instagram Reels,
// vidsite_shorts → YouTube Shorts, facesite_reels → Facebook Page Reels, microsite → X.

import type { z } from 'zod';
import { createFacebookReelsClient } from './facebook-reels.ts';
import { createInstagramReelsClient } from './instagram-reels.ts';
import { checkClientsConfig, DEFAULT_RETRY, type ClientContext } from './platform-support.ts';
import { createTikTokClient } from './tiktok.ts';
import { createXClient } from './x-posts.ts';
import { createYouTubeShortsClient } from './youtube-shorts.ts';

export { PlatformError, type PlatformErrorCode } from './platform-error.ts';
export { DEFAULT_RETRY } from './platform-support.ts';

export const PLATFORMS = ['shortsite', 'photosite', 'vidsite_shorts', 'facesite_reels', 'microsite'] as const;
export type PlatformId = (typeof PLATFORMS)[number];

export interface PlatformToken {
  accessToken: string;
  /**
   * OAuth refresh token (YouTube, TikTok, X). Facebook: the user token the Page token was minted from, if kept.
   * Instagram has none: its long-lived access token refreshes itself.
   */
  refreshToken?: string;
  expiresAt?: Date;
  scope?: string;
}

/** externalAccountId: YouTube channel id, TikTok open_id, Instagram user id, Facebook Page id, X user id. */
export interface PlatformAccount {
  externalAccountId: string;
  token: PlatformToken;
}

export interface VideoToPost {
  filePath: string;
  sizeBytes: number;
  durationSec: number;
  /** A link the platform can fetch the file from; only Instagram uses it, because Instagram pulls the video. */
  signedUrl: string;
  caption: string;
  title?: string;
  hashtags: string[];
  /** Already validated by that platform's optionsSchema. */
  options: Record<string, unknown>;
}

export interface PostedVideo {
  externalId: string;
  externalUrl: string;
  postedAt: Date;
}

export interface PublishOptions {
  signal?: AbortSignal;
  /** Share of the file the platform has confirmed receiving, 0..1; 1 once the post exists. */
  onProgress?: (fraction: number) => void;
}

export interface PlatformClient {
  readonly id: PlatformId;
  /** "YouTube Shorts" etc. */
  readonly name: string;
  /** Per-platform post options (privacy, made for kids, comments…); defaults fill what the caller leaves out. */
  readonly optionsSchema: z.ZodType;
  publish(account: PlatformAccount, video: VideoToPost, opts?: PublishOptions): Promise<PostedVideo>;
  /**
   * A fresh token, or PlatformError PLATFORM_OAUTH_EXPIRED when the platform refuses (the user must reconnect).
   * externalAccountId is needed by Facebook only, to mint that Page's token again from the user token.
   */
  refresh(token: PlatformToken, externalAccountId?: string): Promise<PlatformToken>;
}

export interface PlatformAppCredentials {
  clientId: string;
  clientSecret: string;
}

export interface PlatformEndpointsConfig {
  /** When set, EVERY host of that platform (api, upload, oauth) is replaced by this one origin, for tests and proxies. */
  baseUrl?: string;
  /** The app's OAuth client (TikTok: client_key/client_secret; Meta: app id/secret), needed to refresh tokens. */
  app?: PlatformAppCredentials;
  /** Bytes per upload request (YouTube chunk, TikTok chunk, X segment). Defaults respect each platform's limits. */
  chunkBytes?: number;
  /** Meta Graph API version for Instagram and Facebook, e.g. "v25.0". */
  apiVersion?: string;
  /** Wait between processing-status polls when the platform does not say how long. */
  pollIntervalMs?: number;
  /** How long to wait for the platform to finish processing a video before giving up. */
  processingTimeoutMs?: number;
  /** Time limit of one API request (upload requests have a longer one of their own). */
  requestTimeoutMs?: number;
}

export interface PlatformClientsConfig {
  platforms: Partial<Record<PlatformId, PlatformEndpointsConfig>>;
  /** Attempts per request and backoff; a rate-limit wait longer than maxDelayMs is reported, not waited out. */
  retry?: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  fetch?: typeof fetch;
}

export function createPlatformClients(config: PlatformClientsConfig): Record<PlatformId, PlatformClient> {
  checkClientsConfig(config);
  const context = (id: PlatformId): ClientContext => ({
    endpoints: config.platforms[id] ?? {},
    retry: config.retry ?? DEFAULT_RETRY,
    fetch: config.fetch ?? globalThis.fetch,
  });
  return {
    shortsite: createTikTokClient(context('shortsite')),
    photosite: createInstagramReelsClient(context('photosite')),
    vidsite_shorts: createYouTubeShortsClient(context('vidsite_shorts')),
    facesite_reels: createFacebookReelsClient(context('facesite_reels')),
    microsite: createXClient(context('microsite')),
  };
}
