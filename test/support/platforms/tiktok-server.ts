// A loopback server speaking TikTok's Content Posting API (direct post, FILE_UPLOAD) and its token endpoint:
// creator_info/query, video/init (the chunk plan checked against TikTok's rules: count = size ÷ chunk rounded down,
// small files whole), PUTs to the returned upload_url that must arrive in order with the exact Content-Range of
// each chunk (206 until the last, then 201), status/fetch reporting uploaded_bytes and, once done,
// PUBLISH_COMPLETE with the post id as a bare 64-bit JSON number as TikTok sends it. A cut chunk is not stored
// (chunks are whole or nothing). POST /v2/oauth/token/ rotates refresh tokens. Off-protocol requests are answered
// 400 and listed in `violations`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearer,
  formFields,
  json,
  parseJsonBody,
  readBytes,
  readThenDrop,
  startLoopback,
} from './fake-platform-server.ts';

const MAX_CHUNK = 64 * 1024 * 1024;

export interface TikTokChunkPut {
  start: number;
  end: number;
  arrived: number;
  dropped: boolean;
}

export interface TikTokPublish {
  publishId: string;
  uploadToken: string;
  postInfo: Record<string, unknown>;
  size: number;
  chunkSize: number;
  count: number;
  stored: Buffer[];
  storedBytes: number;
  puts: TikTokChunkPut[];
  statusPolls: number;
  completedPolls: number;
}

export interface TikTokFake {
  baseUrl: string;
  accessToken: string;
  refreshToken: string;
  clientKey: string;
  clientSecret: string;
  username: string;
  /** The id TikTok gives the public post, beyond what a JavaScript number holds exactly. */
  postId: string;
  publishes: TikTokPublish[];
  initAttempts: number;
  violations: string[];
  privacyOptions: string[];
  rateLimitNextInit(retryAfterSec: number): void;
  /** The next upload of chunk `index` (0-based) is cut half way. */
  dropChunk(index: number): void;
  close(): Promise<void>;
}

function tiktokError(res: ServerResponse, status: number, code: string, message: string, headers = {}): void {
  json(res, status, { data: {}, error: { code, message, log_id: randomBytes(8).toString('hex') } }, headers);
}

export async function startTikTokServer(options: { minChunkBytes: number }): Promise<TikTokFake> {
  const state = {
    accessToken: `act.${randomBytes(8).toString('hex')}`,
    refreshToken: `rft.${randomBytes(8).toString('hex')}`,
    clientKey: 'awtestclientkey',
    clientSecret: 'tiktok-test-secret',
    username: 'paper.crafts',
    postId: '7400000000000000001',
    privacyOptions: ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
    publishes: [] as TikTokPublish[],
    initAttempts: 0,
    violations: [] as string[],
    rateLimitSec: undefined as number | undefined,
    dropIndex: undefined as number | undefined,
    baseUrl: '',
  };

  const violation = (res: ServerResponse, message: string): void => {
    state.violations.push(message);
    tiktokError(res, 400, 'invalid_params', message);
  };

  const ok = (res: ServerResponse, data: unknown): void =>
    json(res, 200, { data, error: { code: 'ok', message: '', log_id: randomBytes(8).toString('hex') } });

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readBytes(req);
    if (bearer(req) !== state.accessToken) {
      tiktokError(
        res,
        401,
        'access_token_invalid',
        'The access token is invalid or not found in the request.',
      );
      return;
    }
    if (req.headers['content-type'] !== 'application/json; charset=UTF-8') {
      return violation(res, 'Content-Type must be application/json; charset=UTF-8');
    }
    if (path === '/v2/post/publish/creator_info/query/') {
      ok(res, {
        creator_avatar_url: 'https://p16.example.com/avatar.jpeg',
        creator_username: state.username,
        creator_nickname: 'Paper Crafts',
        privacy_level_options: state.privacyOptions,
        comment_disabled: false,
        duet_disabled: false,
        stitch_disabled: true,
        max_video_post_duration_sec: 600,
      });
      return;
    }
    if (path === '/v2/post/publish/video/init/') return init(res, parseJsonBody(body));
    if (path === '/v2/post/publish/status/fetch/') return status(res, parseJsonBody(body));
    tiktokError(res, 404, 'invalid_params', `no route ${path}`);
  }

  function init(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    state.initAttempts++;
    if (state.rateLimitSec !== undefined) {
      const retryAfter = String(state.rateLimitSec);
      state.rateLimitSec = undefined;
      tiktokError(res, 429, 'rate_limit_exceeded', 'API rate limit was exceeded.', {
        'retry-after': retryAfter,
      });
      return;
    }
    const post = (body?.post_info ?? {}) as Record<string, unknown>;
    const source = (body?.source_info ?? {}) as Record<string, unknown>;
    if (typeof post.title !== 'string' || post.title.length > 2200)
      return violation(res, 'post_info.title is invalid');
    if (!state.privacyOptions.includes(String(post.privacy_level))) {
      tiktokError(
        res,
        403,
        'privacy_level_option_mismatch',
        'privacy_level is not among the creator options',
      );
      return;
    }
    for (const key of ['disable_comment', 'disable_duet', 'disable_stitch']) {
      if (typeof post[key] !== 'boolean') return violation(res, `post_info.${key} must be a boolean`);
    }
    if (post.disable_stitch !== true)
      return violation(res, 'the creator disabled stitch; disable_stitch must be true');
    if (source.source !== 'FILE_UPLOAD') return violation(res, 'source_info.source must be FILE_UPLOAD');
    const size = Number(source.video_size);
    const chunkSize = Number(source.chunk_size);
    const count = Number(source.total_chunk_count);
    if (!Number.isInteger(size) || size <= 0) return violation(res, 'source_info.video_size is invalid');
    const whole = chunkSize === size;
    if (size < options.minChunkBytes && !whole)
      return violation(res, 'a video under the minimum chunk must go whole');
    if (!whole && (chunkSize < options.minChunkBytes || chunkSize > MAX_CHUNK || chunkSize > size)) {
      return violation(res, `chunk_size ${chunkSize} is outside TikTok's limits`);
    }
    const expectedCount = whole ? 1 : Math.floor(size / chunkSize);
    if (count !== expectedCount || count > 1000) {
      return violation(res, `total_chunk_count ${count} should be ${expectedCount}`);
    }
    const publish: TikTokPublish = {
      publishId: `v_pub_file~v2-1.${randomBytes(6).toString('hex')}`,
      uploadToken: randomBytes(12).toString('hex'),
      postInfo: post,
      size,
      chunkSize,
      count,
      stored: [],
      storedBytes: 0,
      puts: [],
      statusPolls: 0,
      completedPolls: 0,
    };
    state.publishes.push(publish);
    ok(res, {
      publish_id: publish.publishId,
      upload_url: `${state.baseUrl}/upload/?upload_id=${encodeURIComponent(publish.publishId)}&upload_token=${publish.uploadToken}`,
    });
  }

  function status(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    const publish = state.publishes.find((p) => p.publishId === body?.publish_id);
    if (!publish) return violation(res, 'unknown publish_id');
    publish.statusPolls++;
    const log = randomBytes(8).toString('hex');
    if (publish.storedBytes < publish.size || publish.completedPolls++ === 0) {
      json(res, 200, {
        data: { status: 'PROCESSING_UPLOAD', uploaded_bytes: publish.storedBytes },
        error: { code: 'ok', message: '', log_id: log },
      });
      return;
    }
    // Written by hand: the id must go out as a bare number wider than 2^53, exactly as TikTok sends it.
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        `{"data":{"status":"PUBLISH_COMPLETE","uploaded_bytes":${publish.storedBytes},"publicaly_available_post_id":[${state.postId}]},"error":{"code":"ok","message":"","log_id":"${log}"}}`,
      );
  }

  async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const publish = state.publishes.find(
      (p) =>
        p.publishId === url.searchParams.get('upload_id') &&
        p.uploadToken === url.searchParams.get('upload_token'),
    );
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const fail = async (message: string): Promise<void> => {
      await readBytes(req);
      violation(res, message);
    };
    if (!publish) return fail('upload to an unknown upload_url');
    if (req.headers['content-type'] !== 'video/mp4') return fail('chunk Content-Type must be video/mp4');
    if (!range) return fail('chunk needs Content-Range: bytes first-last/total');
    const [start, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    const index = Math.floor(start / publish.chunkSize);
    const expectedEnd = index === publish.count - 1 ? publish.size : start + publish.chunkSize;
    if (total !== publish.size) return fail('Content-Range total differs from video_size');
    if (start !== publish.storedBytes)
      return fail(`chunk at ${start} out of order; ${publish.storedBytes} bytes stored`);
    if (last + 1 !== expectedEnd)
      return fail(`chunk ${index} must end at byte ${expectedEnd - 1}, not ${last}`);
    if (Number(req.headers['content-length']) !== last - start + 1)
      return fail('Content-Length differs from range');
    if (state.dropIndex === index) {
      state.dropIndex = undefined;
      const { arrived } = await readThenDrop(req, Math.floor((last - start + 1) / 2));
      publish.puts.push({ start, end: last + 1, arrived: arrived.length, dropped: true });
      return;
    }
    const body = await readBytes(req);
    if (body.length !== last - start + 1) return violation(res, 'chunk body shorter than its range');
    publish.stored.push(body);
    publish.storedBytes += body.length;
    publish.puts.push({ start, end: last + 1, arrived: body.length, dropped: false });
    res.writeHead(publish.storedBytes === publish.size ? 201 : 206).end();
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = formFields(await readBytes(req));
    if (form.client_key !== state.clientKey || form.client_secret !== state.clientSecret) {
      json(res, 401, {
        error: 'invalid_client',
        error_description: 'Client key or secret is incorrect.',
        log_id: 'x',
      });
      return;
    }
    if (form.grant_type !== 'refresh_token' || form.refresh_token !== state.refreshToken) {
      json(res, 400, {
        error: 'invalid_grant',
        error_description: 'Refresh token is invalid or expired.',
        log_id: 'x',
      });
      return;
    }
    state.accessToken = `act.${randomBytes(8).toString('hex')}`;
    state.refreshToken = `rft.${randomBytes(8).toString('hex')}`;
    json(res, 200, {
      access_token: state.accessToken,
      expires_in: 86400,
      open_id: 'open-id-123',
      refresh_expires_in: 31536000,
      refresh_token: state.refreshToken,
      scope: 'user.info.basic,video.publish',
      token_type: 'Bearer',
    });
  }

  const server = await startLoopback(async (req, res, url) => {
    if (req.method === 'POST' && url.pathname === '/v2/oauth/token/') return token(req, res);
    if (req.method === 'PUT' && url.pathname === '/upload/') return upload(req, res, url);
    if (req.method === 'POST' && url.pathname.startsWith('/v2/post/publish/'))
      return api(req, res, url.pathname);
    await readBytes(req);
    tiktokError(res, 404, 'invalid_params', `no route ${req.method} ${url.pathname}`);
  });
  state.baseUrl = server.baseUrl;

  return {
    baseUrl: server.baseUrl,
    get accessToken() {
      return state.accessToken;
    },
    get refreshToken() {
      return state.refreshToken;
    },
    clientKey: state.clientKey,
    clientSecret: state.clientSecret,
    username: state.username,
    postId: state.postId,
    publishes: state.publishes,
    get initAttempts() {
      return state.initAttempts;
    },
    violations: state.violations,
    privacyOptions: state.privacyOptions,
    rateLimitNextInit: (sec) => {
      state.rateLimitSec = sec;
    },
    dropChunk: (index) => {
      state.dropIndex = index;
    },
    close: () => server.close(),
  };
}
