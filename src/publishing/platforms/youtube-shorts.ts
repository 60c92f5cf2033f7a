// YouTube Shorts (vidsite_shorts): YouTube Data API v3 videos.insert over Google's resumable upload protocol. A
// session is opened with the video's metadata, the bytes go up in PUT chunks with Content-Range, and after an
// interruption the server is asked what it holds (Content-Range: bytes */total → 308 + Range) and the upload resumes
// from there. A vertical video of three minutes or less is a Short; there is no separate flag to set.
// Docs: https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol https://developers.google.com/youtube/v3/docs/videos/insert https://developers.google.com/youtube/v3/docs/errors https://developers.google.com/identity/protocols/oauth2/web-server#offline

import { z } from 'zod';
import { PlatformError } from './platform-error.ts';
import type { PlatformClient, PlatformToken, PostedVideo, VideoToPost } from './platform.ts';
import {
  asRecord,
  checkDuration,
  checkedVideoSize,
  composeCaption,
  Interruptions,
  originFor,
  parseOptions,
  PlatformHttp,
  pinReturnedUrl,
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

const NAME = 'YouTube Shorts';
const UPLOAD_ORIGIN = 'https://www.googleapis.com';
const OAUTH_ORIGIN = 'https://oauth2.googleapis.com';
/** Every chunk but the last must be a multiple of 256 KiB. */
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
const DEFAULT_CHUNK_BYTES = 32 * YOUTUBE_CHUNK_UNIT;
/** Longer vertical videos are ordinary YouTube videos, not Shorts. */
const SHORTS_MAX_SEC = 180;
const TITLE_MAX = 100;
/** YouTube counts the description limit in bytes. */
const DESCRIPTION_MAX_BYTES = 5000;
const TAGS_MAX = 500;
const VIDEO_TYPE = 'video/mp4';
/** Daily quotas and upload caps: waiting minutes does not help, so the error carries the wait instead. */
const DAILY_LIMIT_REASONS = new Set(['quotaExceeded', 'uploadLimitExceeded']);
const SHORT_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

export const youtubeShortsOptionsSchema = z.strictObject({
  privacy_status: z.enum(['public', 'unlisted', 'private']).default('public'),
  /** status.selfDeclaredMadeForKids: YouTube requires every upload to declare it (COPPA). */
  made_for_kids: z.boolean().default(false),
  /** 22 = People & Blogs. */
  category_id: z.string().regex(/^\d+$/).default('22'),
  notify_subscribers: z.boolean().default(true),
  /** status.containsSyntheticMedia: realistic altered or synthetic content must be disclosed. */
  contains_synthetic_media: z.boolean().default(false),
});
type YouTubeOptions = z.output<typeof youtubeShortsOptionsSchema>;

export function createYouTubeShortsClient(context: ClientContext): PlatformClient {
  const { endpoints } = context;
  const chunkBytes = endpoints.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (chunkBytes % YOUTUBE_CHUNK_UNIT !== 0) {
    throw new Error(
      `platform clients: vidsite_shorts.chunkBytes must be a multiple of ${YOUTUBE_CHUNK_UNIT}`,
    );
  }
  const uploadOrigin = originFor(endpoints, UPLOAD_ORIGIN);
  const oauthOrigin = originFor(endpoints, OAUTH_ORIGIN);
  const http = new PlatformHttp(NAME, context, classify);

  async function openSession(
    token: string,
    video: VideoToPost,
    options: YouTubeOptions,
    size: number,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const query = new URLSearchParams({
      uploadType: 'resumable',
      part: 'snippet,status',
      notifySubscribers: String(options.notify_subscribers),
    });
    const response = await http.send({
      method: 'POST',
      url: `${uploadOrigin}/upload/youtube/v3/videos?${query.toString()}`,
      what: 'YouTube upload session',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': VIDEO_TYPE,
      },
      body: JSON.stringify(videoResource(video, options)),
      // An unused session simply expires, so opening one again is harmless.
      idempotent: true,
      signal,
    });
    return pinReturnedUrl(
      response.headers.get('location'),
      endpoints,
      'googleapis.com',
      NAME,
      'YouTube upload session',
    );
  }

  /** Sends the bytes from wherever the session stands; resolves with the final answer (the video resource). */
  async function upload(
    session: string,
    token: string,
    video: VideoToPost,
    size: number,
    signal: AbortSignal | undefined,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<Record<string, unknown>> {
    const interruptions = new Interruptions(http, 'YouTube upload', signal);
    const headers = { authorization: `Bearer ${token}` };
    const accept = (status: number): boolean =>
      status === 200 || status === 201 || status === 308 || status === 404;
    let offset = 0;
    /** Bytes the server has acknowledged; only growth here counts as progress. */
    let confirmed = 0;
    let offsetKnown = true;
    for (;;) {
      let answer: PlatformResponse;
      const sentChunk = offsetKnown;
      try {
        if (sentChunk) {
          const end = Math.min(offset + chunkBytes, size);
          answer = await http.send({
            method: 'PUT',
            url: session,
            what: 'YouTube upload chunk',
            headers: {
              ...headers,
              'content-type': VIDEO_TYPE,
              'content-range': `bytes ${offset}-${end - 1}/${size}`,
            },
            body: await readChunk(video.filePath, offset, end - offset),
            idempotent: true,
            maxAttempts: 1,
            accept,
            timeoutMs: UPLOAD_REQUEST_TIMEOUT_MS,
            signal,
          });
        } else {
          // The documented status check: an empty PUT naming only the total size.
          answer = await http.send({
            method: 'PUT',
            url: session,
            what: 'YouTube upload status',
            headers: { ...headers, 'content-range': `bytes */${size}` },
            idempotent: true,
            accept,
            signal,
          });
        }
      } catch (error) {
        await interruptions.absorb(error);
        offsetKnown = false;
        continue;
      }
      if (answer.status === 200 || answer.status === 201) return asRecord(answer.json);
      if (answer.status === 404) {
        throw new PlatformError(
          'PLATFORM_UPLOAD_FAILED',
          'YouTube upload: the upload session expired; the upload must start over',
        );
      }
      offset = receivedUpTo(answer.headers.get('range'));
      if (offset > size) {
        throw new PlatformError(
          'PLATFORM_UPLOAD_FAILED',
          `YouTube upload: the server claims ${offset} of ${size} bytes`,
        );
      }
      if (offset > confirmed) {
        confirmed = offset;
        interruptions.progressed();
      } else if (sentChunk) {
        // A chunk answered 308 without any of it stored: count it like a dropped connection.
        await interruptions.absorb(
          new PlatformError(
            'PLATFORM_UNAVAILABLE',
            `YouTube upload: the chunk at byte ${offset} was not stored`,
          ),
        );
      }
      offsetKnown = true;
      onProgress?.(offset / size);
    }
  }

  return {
    id: 'vidsite_shorts',
    name: NAME,
    optionsSchema: youtubeShortsOptionsSchema,

    async publish(account, video, opts = {}): Promise<PostedVideo> {
      const options = parseOptions(youtubeShortsOptionsSchema, video.options, NAME);
      checkDuration(video, NAME, 0, SHORTS_MAX_SEC);
      const size = await checkedVideoSize(video, NAME);
      const token = account.token.accessToken;
      const session = await openSession(token, video, options, size, opts.signal);
      const resource = await upload(session, token, video, size, opts.signal, opts.onProgress);
      const id = str(resource.id);
      if (!id)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'YouTube upload: the final answer has no video id');
      const status = asRecord(resource.status);
      const uploadStatus = str(status.uploadStatus);
      if (uploadStatus === 'rejected' || uploadStatus === 'failed') {
        const reason = str(status.rejectionReason) ?? str(status.failureReason) ?? 'no reason given';
        throw new PlatformError(
          'PLATFORM_REJECTED',
          `YouTube ${uploadStatus} the video (${reason}); video id ${id}`,
        );
      }
      opts.onProgress?.(1);
      return { externalId: id, externalUrl: `https://www.youtube.com/shorts/${id}`, postedAt: new Date() };
    },

    async refresh(token: PlatformToken): Promise<PlatformToken> {
      const app = requireApp(endpoints, NAME);
      if (!token.refreshToken) {
        throw new PlatformError(
          'PLATFORM_OAUTH_EXPIRED',
          `${NAME}: no refresh token was kept (offline access not granted); the user must reconnect the account`,
        );
      }
      return refreshOAuthToken(
        http,
        {
          url: `${oauthOrigin}/token`,
          what: 'Google token refresh',
          form: {
            client_id: app.clientId,
            client_secret: app.clientSecret,
            refresh_token: token.refreshToken,
            grant_type: 'refresh_token',
          },
        },
        token,
      );
    },
  };
}

function videoResource(video: VideoToPost, options: YouTubeOptions): Record<string, unknown> {
  const description = composeCaption(video.caption, video.hashtags, {
    name: NAME,
    maxLength: DESCRIPTION_MAX_BYTES,
    length: (text) => Buffer.byteLength(text, 'utf8'),
  });
  return {
    snippet: {
      title: videoTitle(video),
      description,
      tags: videoTags(video.hashtags),
      categoryId: options.category_id,
    },
    status: {
      privacyStatus: options.privacy_status,
      selfDeclaredMadeForKids: options.made_for_kids,
      containsSyntheticMedia: options.contains_synthetic_media,
    },
  };
}

/** The given title, or the caption's first line cut at a word to YouTube's 100 characters. */
function videoTitle(video: VideoToPost): string {
  const given = video.title?.trim();
  if (given) {
    if (given.length > TITLE_MAX) {
      throw new PlatformError('PLATFORM_REJECTED', `YouTube titles are at most ${TITLE_MAX} characters`);
    }
    return given;
  }
  const line = video.caption.trim().split('\n')[0]?.trim() ?? '';
  if (!line) throw new PlatformError('PLATFORM_REJECTED', 'YouTube needs a title: give a title or a caption');
  if (line.length <= TITLE_MAX) return line;
  const cut = line.slice(0, TITLE_MAX - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > TITLE_MAX / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** Hashtags as tags, as many as fit YouTube's 500-character budget (a tag with a space counts its quotes). */
function videoTags(hashtags: readonly string[]): string[] {
  const tags: string[] = [];
  let used = 0;
  for (const raw of hashtags) {
    const tag = raw.trim().replace(/^#+/, '');
    if (!tag || tags.includes(tag)) continue;
    const cost = tag.length + (tag.includes(' ') ? 2 : 0) + (tags.length > 0 ? 1 : 0);
    if (used + cost > TAGS_MAX) continue;
    tags.push(tag);
    used += cost;
  }
  return tags;
}

/** The byte after the last one the server holds, from a 308's `Range: bytes=0-N` (no header: nothing yet). */
function receivedUpTo(range: string | null): number {
  const match = range ? /bytes=0-(\d+)/.exec(range) : null;
  return match?.[1] ? Number(match[1]) + 1 : 0;
}

function classify(response: PlatformResponse, what: string): PlatformError {
  const error = asRecord(asRecord(response.json).error);
  const reasons = (Array.isArray(error.errors) ? error.errors : [])
    .map((entry) => str(asRecord(entry).reason))
    .filter((reason): reason is string => reason !== undefined);
  const detail = str(error.message) ?? (reasons.length ? reasons.join(', ') : undefined);
  if (reasons.some((reason) => DAILY_LIMIT_REASONS.has(reason))) {
    return rateLimited(
      NAME,
      what,
      response.status,
      `${detail}; the quota resets at midnight Pacific time`,
      msUntilPacificMidnight(),
    );
  }
  if (reasons.some((reason) => SHORT_LIMIT_REASONS.has(reason))) {
    return rateLimited(NAME, what, response.status, detail, retryAfterHeaderMs(response.headers));
  }
  return statusError(NAME, what, response, detail);
}

/** YouTube's daily quota resets at midnight America/Los_Angeles. */
function msUntilPacificMidnight(now = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(now);
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = part('hour') * 3600 + part('minute') * 60 + part('second');
  return (24 * 3600 - elapsed) * 1000;
}
