// X (microsite): the v2 chunked media upload — POST /2/media/upload/initialize, one multipart APPEND per segment
// (segment_index 0..999), FINALIZE, then STATUS polls while X processes the video — and a post made with
// POST /2/tweets carrying the media id. A dropped APPEND is sent again with the same segment_index; segments X already
// acknowledged are never sent twice. Tokens are OAuth 2.0 user tokens refreshed at /2/oauth2/token.
// Docs: https://docs.x.com/x-api/media/quickstart/media-upload-chunked https://docs.x.com/x-api/media/media-upload https://docs.x.com/x-api/posts/manage-tweets/introduction https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code https://github.com/xdevplatform/xdk/blob/main/latest-openapi.json

import { z } from 'zod';
import { PlatformError } from './platform-error.ts';
import type { PlatformClient, PlatformToken, PostedVideo } from './platform.ts';
import {
  asRecord,
  checkDuration,
  checkedVideoSize,
  composeCaption,
  Interruptions,
  originFor,
  parseOptions,
  PlatformHttp,
  pollSettings,
  pollUntil,
  rateLimited,
  readChunk,
  refreshOAuthToken,
  requireApp,
  retryAfterHeaderMs,
  statusError,
  str,
  UPLOAD_REQUEST_TIMEOUT_MS,
  type ClientContext,
  type PlatformResponse,
} from './platform-support.ts';

const NAME = 'X';
const API_ORIGIN = 'https://api.x.com';
/** X takes segments of at most 5 MB and at most 1000 of them. */
const DEFAULT_SEGMENT_BYTES = 4 * 1024 * 1024;
const MAX_SEGMENT_BYTES = 5_000_000;
const MAX_SEGMENTS = 1000;
/** tweet_video: 0.5 to 140 seconds; amplify_video allows longer for accounts X lets post them. */
const MIN_SEC = 0.5;
const TWEET_VIDEO_MAX_SEC = 140;
const TEXT_MAX_WEIGHT = 280;
const VIDEO_TYPE = 'video/mp4';

export const xOptionsSchema = z.strictObject({
  /** amplify_video allows longer videos for accounts that have them; tweet_video is the ordinary post video. */
  media_category: z.enum(['tweet_video', 'amplify_video']).default('tweet_video'),
  /** Who may reply; everyone when absent. */
  reply_settings: z.enum(['following', 'mentionedUsers', 'subscribers', 'verified']).optional(),
});

/**
 * Post length as X weighs it (twitter-text v3): code points in the Latin, general punctuation and similar ranges
 * count 1, everything else (CJK, emoji) 2, after NFC normalisation. Links, which X counts as 23, are not shortened
 * here, so a caption with short links can still be refused by X itself.
 */
export function xWeightedLength(text: string): number {
  let weight = 0;
  for (const char of text.normalize('NFC')) {
    const cp = char.codePointAt(0) ?? 0;
    const light =
      cp <= 4351 || (cp >= 8192 && cp <= 8205) || (cp >= 8208 && cp <= 8223) || (cp >= 8242 && cp <= 8247);
    weight += light ? 1 : 2;
  }
  return weight;
}

export function createXClient(context: ClientContext): PlatformClient {
  const { endpoints } = context;
  const segmentBytes = endpoints.chunkBytes ?? DEFAULT_SEGMENT_BYTES;
  if (segmentBytes > MAX_SEGMENT_BYTES) {
    throw new Error(
      `platform clients: microsite.chunkBytes must be at most ${MAX_SEGMENT_BYTES} (X's segment limit)`,
    );
  }
  const api = originFor(endpoints, API_ORIGIN);
  const poll = pollSettings(endpoints);
  const http = new PlatformHttp(NAME, context, classify);

  async function jsonCall(
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
    const response = await http.send({
      method: request.method,
      url: `${api}${request.path}`,
      what: request.what,
      headers: {
        authorization: `Bearer ${request.token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      idempotent: request.idempotent,
      ...(signal ? { signal } : {}),
    });
    return asRecord(asRecord(response.json).data);
  }

  async function appendSegments(
    token: string,
    mediaId: string,
    filePath: string,
    size: number,
    signal: AbortSignal | undefined,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<void> {
    const count = Math.ceil(size / segmentBytes);
    const interruptions = new Interruptions(http, 'X media upload', signal);
    for (let index = 0; index < count;) {
      const start = index * segmentBytes;
      const end = Math.min(start + segmentBytes, size);
      const form = new FormData();
      form.append('segment_index', String(index));
      form.append(
        'media',
        new Blob([await readChunk(filePath, start, end - start)], { type: VIDEO_TYPE }),
        'segment',
      );
      try {
        await http.send({
          method: 'POST',
          url: `${api}/2/media/upload/${encodeURIComponent(mediaId)}/append`,
          what: `X media append ${index + 1}/${count}`,
          headers: { authorization: `Bearer ${token}` },
          body: form,
          // X files a segment under its index, so sending the same index again replaces rather than adds.
          idempotent: true,
          maxAttempts: 1,
          timeoutMs: UPLOAD_REQUEST_TIMEOUT_MS,
          ...(signal ? { signal } : {}),
        });
        index++;
        interruptions.progressed();
        onProgress?.(end / size);
      } catch (error) {
        await interruptions.absorb(error);
      }
    }
  }

  async function awaitProcessing(
    token: string,
    mediaId: string,
    first: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    // The finalize answer carries the first state; each later step asks STATUS.
    let info: Record<string, unknown> | undefined = asRecord(first.processing_info);
    await pollUntil(
      {
        timeoutMs: poll.timeoutMs,
        ...(signal ? { signal } : {}),
        onTimeout: () =>
          new PlatformError(
            'PLATFORM_UNAVAILABLE',
            `X was still processing media ${mediaId} after ${Math.round(poll.timeoutMs / 1000)} s; nothing was posted`,
          ),
      },
      async () => {
        if (info === undefined) {
          const query = new URLSearchParams({ media_id: mediaId, command: 'STATUS' });
          const data = await jsonCall(
            {
              method: 'GET',
              path: `/2/media/upload?${query.toString()}`,
              what: 'X media status',
              token,
              idempotent: true,
            },
            signal,
          );
          info = asRecord(data.processing_info);
        }
        const state = str(info.state);
        // No processing_info means the media is ready as it is.
        if (state === undefined || state === 'succeeded') return { done: true, value: undefined };
        if (state === 'failed') {
          const error = asRecord(info.error);
          const reason = str(error.message) ?? str(error.name) ?? 'no reason given';
          throw new PlatformError('PLATFORM_REJECTED', `X could not process the video: ${reason}`);
        }
        const checkAfter = Number(info.check_after_secs);
        info = undefined;
        return {
          done: false,
          waitMs: Number.isFinite(checkAfter) && checkAfter >= 0 ? checkAfter * 1000 : poll.intervalMs,
        };
      },
    );
  }

  return {
    id: 'microsite',
    name: NAME,
    optionsSchema: xOptionsSchema,

    async publish(account, video, opts = {}): Promise<PostedVideo> {
      const options = parseOptions(xOptionsSchema, video.options, NAME);
      checkDuration(
        video,
        NAME,
        MIN_SEC,
        options.media_category === 'tweet_video' ? TWEET_VIDEO_MAX_SEC : Number.POSITIVE_INFINITY,
        options.media_category === 'tweet_video' ? '; media_category amplify_video allows longer videos' : '',
      );
      const size = await checkedVideoSize(video, NAME);
      const text = composeCaption(video.caption, video.hashtags, {
        name: NAME,
        maxLength: TEXT_MAX_WEIGHT,
        length: xWeightedLength,
      });
      if (Math.ceil(size / segmentBytes) > MAX_SEGMENTS) {
        throw new PlatformError(
          'PLATFORM_REJECTED',
          `X takes at most ${MAX_SEGMENTS} segments; this file needs more`,
        );
      }
      const token = account.token.accessToken;
      const { signal } = opts;
      const init = await jsonCall(
        {
          method: 'POST',
          path: '/2/media/upload/initialize',
          what: 'X media initialize',
          token,
          body: { media_type: VIDEO_TYPE, total_bytes: size, media_category: options.media_category },
          // An upload that is never finalised expires; starting another is harmless.
          idempotent: true,
        },
        signal,
      );
      const mediaId = str(init.id);
      if (!mediaId)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'X media initialize: no media id in the answer');
      await appendSegments(token, mediaId, video.filePath, size, signal, opts.onProgress);
      const finalized = await jsonCall(
        {
          method: 'POST',
          path: `/2/media/upload/${encodeURIComponent(mediaId)}/finalize`,
          what: 'X media finalize',
          token,
          idempotent: true,
        },
        signal,
      );
      await awaitProcessing(token, mediaId, finalized, signal);
      const post = await jsonCall(
        {
          method: 'POST',
          path: '/2/tweets',
          what: 'X post',
          token,
          body: {
            text,
            media: { media_ids: [mediaId] },
            ...(options.reply_settings ? { reply_settings: options.reply_settings } : {}),
          },
          // Sent again after a lost answer it could post twice.
          idempotent: false,
        },
        signal,
      );
      const postId = str(post.id);
      if (!postId) {
        throw new PlatformError(
          'PLATFORM_UNAVAILABLE',
          'X accepted the post but answered without its id; check the account',
          {
            retryable: false,
          },
        );
      }
      opts.onProgress?.(1);
      return {
        externalId: postId,
        externalUrl: `https://x.com/i/web/status/${postId}`,
        postedAt: new Date(),
      };
    },

    async refresh(token: PlatformToken): Promise<PlatformToken> {
      const app = requireApp(endpoints, NAME);
      if (!token.refreshToken) {
        throw new PlatformError(
          'PLATFORM_OAUTH_EXPIRED',
          `${NAME}: no refresh token was kept (offline.access not granted); the user must reconnect`,
        );
      }
      const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
      return refreshOAuthToken(
        http,
        {
          url: `${api}/2/oauth2/token`,
          what: 'X token refresh',
          // A confidential client authenticates with HTTP Basic; X rotates the refresh token on every use.
          headers: { authorization: `Basic ${basic}` },
          form: { grant_type: 'refresh_token', refresh_token: token.refreshToken, client_id: app.clientId },
        },
        token,
      );
    },
  };
}

/** X's per-endpoint window: x-rate-limit-reset is the epoch second when it reopens. */
function rateLimitResetMs(headers: Headers): number | undefined {
  const reset = Number(headers.get('x-rate-limit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined;
}

function classify(response: PlatformResponse, what: string): PlatformError {
  const body = asRecord(response.json);
  const first = asRecord(Array.isArray(body.errors) ? body.errors[0] : undefined);
  const detail = str(body.detail) ?? str(body.title) ?? str(first.message) ?? str(first.detail);
  if (response.status === 429) {
    return rateLimited(
      NAME,
      what,
      429,
      detail,
      retryAfterHeaderMs(response.headers) ?? rateLimitResetMs(response.headers),
    );
  }
  return statusError(NAME, what, response, detail);
}
