// TikTok (shortsite): Content Posting API, direct post with FILE_UPLOAD. The creator's settings are read first (the
// privacy levels this account may use, its interaction switches, its longest allowed video), the post is initialised
// with the chunk plan, the chunks are PUT in order to the returned upload_url, and the publish status is polled until
// TikTok reports the post. After an interruption the status's uploaded_bytes says which chunk to resume from.
// Docs: https://developers.tiktok.com/doc/content-posting-api-reference-direct-post https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info https://developers.tiktok.com/doc/oauth-user-access-token-management

import { z } from 'zod';
import { PlatformError } from './platform-error.ts';
import type { PlatformClient, PlatformToken, PostedVideo, VideoToPost } from './platform.ts';
import {
  asRecord,
  checkedVideoSize,
  composeCaption,
  Interruptions,
  originFor,
  parseOptions,
  pinReturnedUrl,
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
  utf16Length,
  type ClientContext,
  type PlatformResponse,
} from './platform-support.ts';

const NAME = 'TikTok';
const API_ORIGIN = 'https://open.tiktokapis.com';
/** TikTok: chunks of 5–64 MB (the last may run to 128 MB), at most 1000 of them, sent in order. */
const DEFAULT_CHUNK_BYTES = 10 * 1024 * 1024;
const MAX_CHUNK_BYTES = 64 * 1024 * 1024;
const MAX_CHUNKS = 1000;
const TITLE_MAX = 2200;
const VIDEO_TYPE = 'video/mp4';
const JSON_TYPE = 'application/json; charset=UTF-8';
/** A daily posting cap: not worth waiting out in-process. */
const POSTING_CAP_WAIT_MS = 60 * 60_000;
/** A public post's id arrives after moderation; how long to keep asking once TikTok says the post is complete. */
const POST_ID_GRACE_MS = 2 * 60_000;

export const tiktokOptionsSchema = z.strictObject({
  /** Must be one the creator's account offers (creator_info privacy_level_options), checked before upload. */
  privacy_level: z
    .enum(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'])
    .default('PUBLIC_TO_EVERYONE'),
  disable_comment: z.boolean().default(false),
  disable_duet: z.boolean().default(false),
  disable_stitch: z.boolean().default(false),
  video_cover_timestamp_ms: z.int().min(0).optional(),
  /** Paid partnership disclosure. */
  brand_content_toggle: z.boolean().default(false),
  /** Promoting the creator's own business. */
  brand_organic_toggle: z.boolean().default(false),
  /** AI-generated content label. */
  is_aigc: z.boolean().default(false),
});

interface CreatorInfo {
  username: string;
  privacyOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxDurationSec: number | undefined;
}

/** TikTok's rule: the chunk count is the size divided by the chunk size, rounded down; the last chunk takes the rest. */
export function tiktokChunkPlan(size: number, chunkBytes: number): { chunkSize: number; count: number } {
  if (size <= chunkBytes) return { chunkSize: size, count: 1 };
  return { chunkSize: chunkBytes, count: Math.floor(size / chunkBytes) };
}

export function createTikTokClient(context: ClientContext): PlatformClient {
  const { endpoints } = context;
  const chunkBytes = endpoints.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (chunkBytes > MAX_CHUNK_BYTES) {
    throw new Error(
      `platform clients: shortsite.chunkBytes must be at most ${MAX_CHUNK_BYTES} (TikTok's limit)`,
    );
  }
  const api = originFor(endpoints, API_ORIGIN);
  const poll = pollSettings(endpoints);
  const http = new PlatformHttp(NAME, context, classify);

  async function call(
    token: string,
    path: string,
    what: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const response = await http.send({
      method: 'POST',
      url: `${api}${path}`,
      what,
      headers: { authorization: `Bearer ${token}`, 'content-type': JSON_TYPE },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // Reads, and an init whose unused upload simply expires: repeating any of them cannot post twice.
      idempotent: true,
      signal,
    });
    const answer = parseTikTokJson(response.text);
    const code = str(asRecord(answer.error).code);
    if (code && code !== 'ok') throw classify({ ...response, json: answer }, what);
    return asRecord(answer.data);
  }

  async function creatorInfo(token: string, signal: AbortSignal | undefined): Promise<CreatorInfo> {
    const data = await call(
      token,
      '/v2/post/publish/creator_info/query/',
      'TikTok creator info',
      undefined,
      signal,
    );
    const maxDuration = Number(data.max_video_post_duration_sec);
    return {
      username: str(data.creator_username) ?? '',
      privacyOptions: Array.isArray(data.privacy_level_options) ? data.privacy_level_options.map(String) : [],
      commentDisabled: data.comment_disabled === true,
      duetDisabled: data.duet_disabled === true,
      stitchDisabled: data.stitch_disabled === true,
      maxDurationSec: Number.isFinite(maxDuration) && maxDuration > 0 ? maxDuration : undefined,
    };
  }

  async function uploadedBytes(
    token: string,
    publishId: string,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const data = await call(
      token,
      '/v2/post/publish/status/fetch/',
      'TikTok upload status',
      { publish_id: publishId },
      signal,
    );
    const bytes = Number(data.uploaded_bytes);
    if (!Number.isFinite(bytes) || bytes < 0) {
      throw new PlatformError(
        'PLATFORM_UNAVAILABLE',
        'TikTok upload status: no uploaded_bytes in the answer',
      );
    }
    return bytes;
  }

  async function upload(
    token: string,
    publishId: string,
    uploadUrl: string,
    video: VideoToPost,
    size: number,
    plan: { chunkSize: number; count: number },
    signal: AbortSignal | undefined,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<void> {
    const interruptions = new Interruptions(http, 'TikTok upload', signal);
    let index = 0;
    let positionKnown = true;
    while (index < plan.count) {
      try {
        if (!positionKnown) {
          // Chunks are stored whole or not at all: resume at the chunk holding the first byte TikTok lacks.
          const have = await uploadedBytes(token, publishId, signal);
          if (have >= size) return;
          index = Math.min(Math.floor(have / plan.chunkSize), plan.count - 1);
          positionKnown = true;
          continue;
        }
        const start = index * plan.chunkSize;
        const end = index === plan.count - 1 ? size : start + plan.chunkSize;
        const response = await http.send({
          method: 'PUT',
          url: uploadUrl,
          what: `TikTok upload chunk ${index + 1}/${plan.count}`,
          headers: { 'content-type': VIDEO_TYPE, 'content-range': `bytes ${start}-${end - 1}/${size}` },
          body: await readChunk(video.filePath, start, end - start),
          idempotent: true,
          maxAttempts: 1,
          // 206: chunk stored, more expected; 201: every chunk is in.
          accept: (status) => status === 206 || status === 201,
          timeoutMs: UPLOAD_REQUEST_TIMEOUT_MS,
          signal,
        });
        if (response.status === 201) return;
        index++;
        interruptions.progressed();
        onProgress?.(end / size);
      } catch (error) {
        await interruptions.absorb(error);
        positionKnown = false;
      }
    }
    throw new PlatformError(
      'PLATFORM_UPLOAD_FAILED',
      'TikTok upload: the last chunk was not acknowledged as complete',
    );
  }

  async function awaitPost(
    token: string,
    publishId: string,
    creator: CreatorInfo,
    privateOnly: boolean,
    signal: AbortSignal | undefined,
  ): Promise<PostedVideo> {
    let completeSince: number | undefined;
    return pollUntil(
      {
        timeoutMs: poll.timeoutMs,
        ...(signal ? { signal } : {}),
        onTimeout: () =>
          // The post may still appear: another attempt could publish it twice, so this is not retried.
          new PlatformError(
            'PLATFORM_UNAVAILABLE',
            `TikTok is still processing publish ${publishId} after ${Math.round(poll.timeoutMs / 1000)} s; check the profile before posting again`,
            { retryable: false },
          ),
      },
      async () => {
        const data = await call(
          token,
          '/v2/post/publish/status/fetch/',
          'TikTok post status',
          { publish_id: publishId },
          signal,
        );
        const status = str(data.status);
        if (status === 'FAILED') throw publishFailed(str(data.fail_reason), publishId);
        if (status === 'SEND_TO_USER_INBOX') {
          throw new PlatformError(
            'PLATFORM_REJECTED',
            `TikTok sent publish ${publishId} to the creator's inbox instead of posting it`,
          );
        }
        if (status !== 'PUBLISH_COMPLETE') return { done: false, waitMs: poll.intervalMs };
        const ids = Array.isArray(data.publicaly_available_post_id)
          ? data.publicaly_available_post_id.map(String)
          : [];
        const postId = ids[0];
        const profile = `https://www.tiktok.com/@${encodeURIComponent(creator.username)}`;
        if (postId) return { done: true, value: posted(postId, `${profile}/video/${postId}`) };
        completeSince ??= Date.now();
        // Private posts never get a public id; public ones get it after moderation, which may take a while.
        if (privateOnly || Date.now() - completeSince >= Math.min(POST_ID_GRACE_MS, poll.timeoutMs / 2)) {
          return { done: true, value: posted(publishId, profile) };
        }
        return { done: false, waitMs: poll.intervalMs };
      },
    );
  }

  return {
    id: 'shortsite',
    name: NAME,
    optionsSchema: tiktokOptionsSchema,

    async publish(account, video, opts = {}): Promise<PostedVideo> {
      const options = parseOptions(tiktokOptionsSchema, video.options, NAME);
      const size = await checkedVideoSize(video, NAME);
      const title = composeCaption(video.caption, video.hashtags, {
        name: NAME,
        maxLength: TITLE_MAX,
        length: utf16Length,
      });
      const plan = tiktokChunkPlan(size, chunkBytes);
      if (plan.count > MAX_CHUNKS) {
        throw new PlatformError(
          'PLATFORM_REJECTED',
          `TikTok takes at most ${MAX_CHUNKS} chunks; this file needs ${plan.count}`,
        );
      }
      const token = account.token.accessToken;
      const creator = await creatorInfo(token, opts.signal);
      if (!creator.privacyOptions.includes(options.privacy_level)) {
        throw new PlatformError(
          'PLATFORM_REJECTED',
          `This TikTok account cannot post with privacy ${options.privacy_level}; it offers ${creator.privacyOptions.join(', ') || 'none'}`,
        );
      }
      if (creator.maxDurationSec !== undefined && video.durationSec > creator.maxDurationSec) {
        throw new PlatformError(
          'PLATFORM_REJECTED',
          `This TikTok account posts videos up to ${creator.maxDurationSec} s; this one is ${video.durationSec} s`,
        );
      }
      const init = await call(
        token,
        '/v2/post/publish/video/init/',
        'TikTok video init',
        {
          post_info: {
            title,
            privacy_level: options.privacy_level,
            // Interactions the creator switched off in the app stay off, whatever the post asks.
            disable_comment: options.disable_comment || creator.commentDisabled,
            disable_duet: options.disable_duet || creator.duetDisabled,
            disable_stitch: options.disable_stitch || creator.stitchDisabled,
            ...(options.video_cover_timestamp_ms === undefined
              ? {}
              : { video_cover_timestamp_ms: options.video_cover_timestamp_ms }),
            brand_content_toggle: options.brand_content_toggle,
            brand_organic_toggle: options.brand_organic_toggle,
            is_aigc: options.is_aigc,
          },
          source_info: {
            source: 'FILE_UPLOAD',
            video_size: size,
            chunk_size: plan.chunkSize,
            total_chunk_count: plan.count,
          },
        },
        opts.signal,
      );
      const publishId = str(init.publish_id);
      if (!publishId)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'TikTok video init: no publish_id in the answer');
      const uploadUrl = pinReturnedUrl(
        init.upload_url,
        endpoints,
        'tiktokapis.com',
        NAME,
        'TikTok video init',
      );
      await upload(token, publishId, uploadUrl, video, size, plan, opts.signal, opts.onProgress);
      const result = await awaitPost(
        token,
        publishId,
        creator,
        options.privacy_level === 'SELF_ONLY',
        opts.signal,
      );
      opts.onProgress?.(1);
      return result;
    },

    async refresh(token: PlatformToken): Promise<PlatformToken> {
      const app = requireApp(endpoints, NAME);
      if (!token.refreshToken) {
        throw new PlatformError(
          'PLATFORM_OAUTH_EXPIRED',
          `${NAME}: no refresh token was kept; the user must reconnect`,
        );
      }
      // TikTok rotates refresh tokens: the answer's refresh_token replaces the one sent, which stops working.
      return refreshOAuthToken(
        http,
        {
          url: `${api}/v2/oauth/token/`,
          what: 'TikTok token refresh',
          form: {
            client_key: app.clientId,
            client_secret: app.clientSecret,
            grant_type: 'refresh_token',
            refresh_token: token.refreshToken,
          },
        },
        token,
      );
    },
  };
}

function posted(externalId: string, externalUrl: string): PostedVideo {
  return { externalId, externalUrl, postedAt: new Date() };
}

function publishFailed(reason: string | undefined, publishId: string): PlatformError {
  const message = `TikTok did not publish ${publishId}: ${reason ?? 'no reason given'}`;
  if (reason === 'auth_removed') return new PlatformError('PLATFORM_OAUTH_EXPIRED', message);
  // An internal failure published nothing, so posting again is safe.
  if (reason === 'internal') return new PlatformError('PLATFORM_UNAVAILABLE', message);
  return new PlatformError('PLATFORM_REJECTED', message);
}

/**
 * TikTok post ids are 64-bit integers sent as bare JSON numbers, which JavaScript numbers cannot hold exactly
 * (7400000000000000001 would read as …000); they are turned into strings before parsing.
 */
export function parseTikTokJson(text: string): Record<string, unknown> {
  const quoted = text.replace(
    /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/g,
    (_match, open: string, list: string) =>
      `${open}${list
        .split(',')
        .map((item) => (/^\s*-?\d+\s*$/.test(item) ? `"${item.trim()}"` : item))
        .join(',')}]`,
  );
  try {
    return asRecord(JSON.parse(quoted));
  } catch {
    return {};
  }
}

function classify(response: PlatformResponse, what: string): PlatformError {
  const answer = response.json === null ? parseTikTokJson(response.text) : asRecord(response.json);
  const error = asRecord(answer.error);
  const code = str(error.code);
  const detail = [code, str(error.message)].filter(Boolean).join(': ') || undefined;
  if (code === 'access_token_invalid') {
    return new PlatformError(
      'PLATFORM_OAUTH_EXPIRED',
      `${what}: TikTok says the access token is invalid or expired (${detail}). Refresh it or reconnect the account.`,
      { status: response.status },
    );
  }
  if (code === 'rate_limit_exceeded') {
    return rateLimited(NAME, what, response.status, detail, retryAfterHeaderMs(response.headers));
  }
  if (code === 'spam_risk_too_many_posts') {
    return rateLimited(NAME, what, response.status, detail, POSTING_CAP_WAIT_MS);
  }
  if (code === 'internal_error') {
    return new PlatformError('PLATFORM_UNAVAILABLE', `${what}: TikTok had an internal error (${detail})`, {
      status: response.status,
    });
  }
  if (code && response.status >= 200 && response.status < 300) {
    return new PlatformError('PLATFORM_REJECTED', `${what}: TikTok refused the request (${detail})`, {
      status: response.status,
    });
  }
  return statusError(NAME, what, response, detail);
}
