// Instagram Reels (photosite): Instagram API with Instagram Login, container-then-publish. Instagram pulls the video
// itself from a public URL (the caller's signed link): a REELS container is created with that URL and the caption,
// its status_code is polled until FINISHED (ERROR or EXPIRED end it), the container is published, and the new media's
// permalink is read. Long-lived Instagram tokens are refreshed with themselves (grant_type=ig_refresh_token).
// Docs: https://developers.facebook.com/docs/instagram-platform/content-publishing/ https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token

import { z } from 'zod';
import { graphVersion, metaErrorClassifier } from './meta-graph.ts';
import { PlatformError } from './platform-error.ts';
import type { PlatformClient, PlatformToken, PostedVideo } from './platform.ts';
import {
  asRecord,
  checkDuration,
  codePointLength,
  composeCaption,
  originFor,
  parseOptions,
  PlatformHttp,
  pollSettings,
  pollUntil,
  str,
  type ClientContext,
  type PlatformResponse,
} from './platform-support.ts';

const NAME = 'Instagram Reels';
const GRAPH_ORIGIN = 'https://graph.instagram.com';
/** Reels published through the API run from 3 seconds to 15 minutes. */
const MIN_SEC = 3;
const MAX_SEC = 15 * 60;
const CAPTION_MAX = 2200;
const HASHTAGS_MAX = 30;

export const instagramReelsOptionsSchema = z.strictObject({
  /** Also show the reel in the profile's feed grid, not only the Reels tab. */
  share_to_feed: z.boolean().default(true),
  /** Cover frame, in milliseconds into the video (ignored when cover_url is set). */
  thumb_offset_ms: z.int().min(0).optional(),
  /** A public image URL for the cover. */
  cover_url: z.url({ protocol: /^https$/ }).optional(),
  /** Name for the reel's original audio. */
  audio_name: z.string().min(1).max(200).optional(),
  location_id: z.string().regex(/^\d+$/).optional(),
});

export function createInstagramReelsClient(context: ClientContext): PlatformClient {
  const { endpoints } = context;
  const graph = originFor(endpoints, GRAPH_ORIGIN);
  const version = graphVersion(endpoints.apiVersion);
  const poll = pollSettings(endpoints);
  const http = new PlatformHttp(NAME, context, metaErrorClassifier(NAME));

  const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

  async function graphCall(
    request: {
      method: 'GET' | 'POST';
      path: string;
      what: string;
      token: string;
      body?: unknown;
      idempotent: boolean;
    },
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const response: PlatformResponse = await http.send({
      method: request.method,
      url: `${graph}/${version}${request.path}`,
      what: request.what,
      headers: {
        ...bearer(request.token),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      idempotent: request.idempotent,
      signal,
    });
    return asRecord(response.json);
  }

  return {
    id: 'photosite',
    name: NAME,
    optionsSchema: instagramReelsOptionsSchema,

    async publish(account, video, opts = {}): Promise<PostedVideo> {
      const options = parseOptions(instagramReelsOptionsSchema, video.options, NAME);
      checkDuration(video, NAME, MIN_SEC, MAX_SEC);
      const caption = composeCaption(video.caption, video.hashtags, {
        name: NAME,
        maxLength: CAPTION_MAX,
        length: codePointLength,
        maxHashtags: HASHTAGS_MAX,
      });
      const userId = encodeURIComponent(account.externalAccountId);
      const token = account.token.accessToken;
      const { signal } = opts;
      const container = await graphCall(
        {
          method: 'POST',
          path: `/${userId}/media`,
          what: 'Instagram reel container',
          token,
          body: {
            media_type: 'REELS',
            video_url: video.signedUrl,
            caption,
            share_to_feed: options.share_to_feed,
            ...(options.thumb_offset_ms === undefined ? {} : { thumb_offset: options.thumb_offset_ms }),
            ...(options.cover_url === undefined ? {} : { cover_url: options.cover_url }),
            ...(options.audio_name === undefined ? {} : { audio_name: options.audio_name }),
            ...(options.location_id === undefined ? {} : { location_id: options.location_id }),
          },
          // An unpublished container expires by itself, so creating another is harmless.
          idempotent: true,
        },
        signal,
      );
      const containerId = str(container.id);
      if (!containerId)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'Instagram reel container: no id in the answer');

      await pollUntil(
        {
          timeoutMs: poll.timeoutMs,
          ...(signal ? { signal } : {}),
          onTimeout: () =>
            new PlatformError(
              'PLATFORM_UNAVAILABLE',
              `Instagram was still processing container ${containerId} after ${Math.round(poll.timeoutMs / 1000)} s; nothing was published`,
            ),
        },
        async () => {
          const state = await graphCall(
            {
              method: 'GET',
              path: `/${encodeURIComponent(containerId)}?fields=status_code,status`,
              what: 'Instagram container status',
              token,
              idempotent: true,
            },
            signal,
          );
          const code = str(state.status_code);
          const detail = str(state.status) ?? 'no detail given';
          if (code === 'FINISHED') return { done: true, value: undefined };
          if (code === 'ERROR') {
            throw new PlatformError('PLATFORM_REJECTED', `Instagram could not process the video: ${detail}`);
          }
          if (code === 'EXPIRED') {
            throw new PlatformError(
              'PLATFORM_UPLOAD_FAILED',
              `Instagram container ${containerId} expired before publishing`,
            );
          }
          if (code === 'PUBLISHED') {
            throw new PlatformError(
              'PLATFORM_REJECTED',
              `Instagram container ${containerId} was already published`,
            );
          }
          return { done: false, waitMs: poll.intervalMs };
        },
      );

      const published = await graphCall(
        {
          method: 'POST',
          path: `/${userId}/media_publish`,
          what: 'Instagram publish',
          token,
          body: { creation_id: containerId },
          // Sent again after a lost answer it could publish the reel twice.
          idempotent: false,
        },
        signal,
      );
      const mediaId = str(published.id);
      if (!mediaId) {
        throw new PlatformError(
          'PLATFORM_UNAVAILABLE',
          `Instagram accepted the publish of container ${containerId} but answered without a media id; check the profile before posting again`,
          { retryable: false },
        );
      }
      const media = await graphCall(
        {
          method: 'GET',
          path: `/${encodeURIComponent(mediaId)}?fields=permalink`,
          what: 'Instagram permalink',
          token,
          idempotent: true,
        },
        signal,
      ).catch((error: unknown): Record<string, unknown> => {
        // The reel exists now: a failed link lookup must not make the job post it again.
        if (error instanceof PlatformError) return {};
        throw error;
      });
      opts.onProgress?.(1);
      // Instagram links use a shortcode that cannot be derived from the id; without the lookup there is no link.
      return { externalId: mediaId, externalUrl: str(media.permalink) ?? '', postedAt: new Date() };
    },

    async refresh(token: PlatformToken): Promise<PlatformToken> {
      // The token refreshes itself once it is at least 24 hours old; the refreshed one lasts another 60 days.
      const query = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: token.accessToken });
      const response = await http.send({
        method: 'GET',
        url: `${graph}/refresh_access_token?${query.toString()}`,
        what: 'Instagram token refresh',
        idempotent: true,
      });
      const body = asRecord(response.json);
      const accessToken = str(body.access_token);
      if (!accessToken) {
        throw new PlatformError(
          'PLATFORM_UNAVAILABLE',
          'Instagram token refresh: no access_token in the answer',
        );
      }
      const expiresIn = Number(body.expires_in);
      return {
        accessToken,
        ...(Number.isFinite(expiresIn) && expiresIn > 0
          ? { expiresAt: new Date(Date.now() + expiresIn * 1000) }
          : {}),
        ...(token.scope ? { scope: token.scope } : {}),
      };
    },
  };
}
