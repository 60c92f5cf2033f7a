// A loopback server speaking Facebook's Reels Publishing API: POST /{v}/{page}/video_reels upload_phase=start gives a
// video id and an upload_url, POST /video-upload/{v}/{video} (rupload) takes the bytes with `Authorization: OAuth`,
// `offset` (which must equal what is already stored) and `file_size`, keeping whatever arrived before a cut
// connection; GET /{v}/{video}?fields=status reports uploading_phase.bytes_transferred; upload_phase=finish
// publishes. Token side: GET /{v}/oauth/access_token (fb_exchange_token), GET /{v}/{page}?fields=access_token and
// GET /{v}/me. Graph errors use Meta's body; rate limits come as code 32 with an X-Business-Use-Case-Usage header.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearer,
  json,
  parseJsonBody,
  readBytes,
  readThenDrop,
  startLoopback,
} from './fake-platform-server.ts';

export interface RuploadPost {
  offset: number;
  arrived: number;
  dropped: boolean;
}

export interface FacebookVideo {
  id: string;
  size: number | undefined;
  stored: Buffer[];
  storedBytes: number;
  posts: RuploadPost[];
  statusReads: number;
  finish?: Record<string, unknown>;
}

export type FacebookRateLimit = 'http-429' | 'page-code';

export interface FacebookFake {
  baseUrl: string;
  version: string;
  pageId: string;
  pageToken: string;
  userToken: string;
  appId: string;
  appSecret: string;
  videos: FacebookVideo[];
  startAttempts: number;
  violations: string[];
  rateLimitNextStarts(kinds: FacebookRateLimit[]): void;
  /** The next rupload request is cut once the file's byte `offset` has arrived. */
  dropAt(offset: number): void;
  close(): Promise<void>;
}

function metaError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  extra = {},
  headers = {},
): void {
  json(
    res,
    status,
    { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf', ...extra } },
    headers,
  );
}

export async function startFacebookServer(): Promise<FacebookFake> {
  const state = {
    version: 'v25.0',
    pageId: '104000000000001',
    pageToken: `EAAPage${randomBytes(8).toString('hex')}`,
    userToken: `EAAUser${randomBytes(8).toString('hex')}`,
    appId: '1234567890',
    appSecret: 'facebook-app-secret',
    videos: [] as FacebookVideo[],
    startAttempts: 0,
    violations: [] as string[],
    rateLimits: [] as FacebookRateLimit[],
    dropOffset: undefined as number | undefined,
    baseUrl: '',
  };

  const violation = (res: ServerResponse, message: string): void => {
    state.violations.push(message);
    metaError(res, 400, 100, `Invalid parameter: ${message}`);
  };

  function videoReels(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    if (body?.upload_phase === 'start') {
      state.startAttempts++;
      const limit = state.rateLimits.shift();
      if (limit === 'http-429') {
        metaError(res, 429, 32, 'Page request limit reached', {}, { 'retry-after': '0' });
        return;
      }
      if (limit === 'page-code') {
        const usage = {
          [state.pageId]: [{ type: 'pages', call_count: 100, estimated_time_to_regain_access: 0 }],
        };
        metaError(
          res,
          400,
          32,
          'Page request limit reached',
          {},
          { 'x-business-use-case-usage': JSON.stringify(usage) },
        );
        return;
      }
      const video: FacebookVideo = {
        id: `1200${randomBytes(5).readUIntBE(0, 5)}`,
        size: undefined,
        stored: [],
        storedBytes: 0,
        posts: [],
        statusReads: 0,
      };
      state.videos.push(video);
      json(res, 200, {
        video_id: video.id,
        upload_url: `https://rupload.facebook.com/video-upload/${state.version}/${video.id}`,
      });
      return;
    }
    if (body?.upload_phase === 'finish') {
      const video = state.videos.find((v) => v.id === body.video_id);
      if (!video) return violation(res, 'finish names no video');
      if (video.size === undefined || video.storedBytes !== video.size)
        return violation(res, 'finish before the upload completed');
      if (!['PUBLISHED', 'DRAFT'].includes(String(body.video_state)))
        return violation(res, 'video_state is invalid');
      if (typeof body.description !== 'string') return violation(res, 'description must be a string');
      video.finish = body;
      json(res, 200, { success: true });
      return;
    }
    violation(res, 'upload_phase must be start or finish');
  }

  async function rupload(req: IncomingMessage, res: ServerResponse, videoId: string): Promise<void> {
    const video = state.videos.find((v) => v.id === videoId);
    const offset = Number(req.headers.offset);
    const size = Number(req.headers.file_size);
    const refuse = async (status: number, message: string, retriable = false): Promise<void> => {
      await readBytes(req);
      if (status === 400) state.violations.push(message);
      json(res, status, { debug_info: { retriable, type: 'ProcessingFailedError', message } });
    };
    if (req.headers.authorization !== `OAuth ${state.pageToken}`)
      return refuse(401, 'Authorization must be OAuth <page token>');
    if (!video) return refuse(400, 'unknown video id');
    if (!Number.isInteger(offset) || !Number.isInteger(size) || size <= 0)
      return refuse(400, 'offset and file_size headers are required');
    if ((video.size ?? size) !== size) return refuse(400, 'file_size changed between requests');
    if (offset !== video.storedBytes)
      return refuse(400, `offset ${offset} but ${video.storedBytes} bytes are stored`);
    if (Number(req.headers['content-length']) !== size - offset)
      return refuse(400, 'the body must run from offset to the end');
    video.size = size;
    if (state.dropOffset !== undefined && state.dropOffset > offset) {
      const cut = state.dropOffset - offset;
      state.dropOffset = undefined;
      const { arrived } = await readThenDrop(req, cut);
      video.stored.push(arrived);
      video.storedBytes += arrived.length;
      video.posts.push({ offset, arrived: arrived.length, dropped: true });
      return;
    }
    const body = await readBytes(req);
    video.stored.push(body);
    video.storedBytes += body.length;
    video.posts.push({ offset, arrived: body.length, dropped: false });
    json(res, 200, { success: true });
  }

  function videoStatus(res: ServerResponse, video: FacebookVideo): void {
    video.statusReads++;
    const complete = video.size !== undefined && video.storedBytes === video.size;
    json(res, 200, {
      status: {
        video_status: complete ? 'upload_complete' : 'uploading',
        uploading_phase: {
          status: complete ? 'complete' : 'in_progress',
          bytes_transferred: video.storedBytes,
        },
        processing_phase: { status: 'not_started' },
        publishing_phase: { status: 'not_started' },
      },
      id: video.id,
    });
  }

  function exchange(res: ServerResponse, url: URL): void {
    const q = url.searchParams;
    if (q.get('grant_type') !== 'fb_exchange_token')
      return violation(res, 'grant_type must be fb_exchange_token');
    if (q.get('client_id') !== state.appId || q.get('client_secret') !== state.appSecret) {
      metaError(res, 400, 1, 'Error validating client secret.');
      return;
    }
    if (q.get('fb_exchange_token') !== state.userToken) {
      metaError(res, 400, 190, 'Error validating access token: The session has been invalidated.', {
        error_subcode: 460,
      });
      return;
    }
    state.userToken = `EAAUser${randomBytes(8).toString('hex')}`;
    json(res, 200, { access_token: state.userToken, token_type: 'bearer', expires_in: 5183999 });
  }

  const server = await startLoopback(async (req, res, url) => {
    const parts = url.pathname.split('/').slice(1);
    if (req.method === 'POST' && parts[0] === 'video-upload' && parts[1] === state.version && parts[2]) {
      return rupload(req, res, parts[2]);
    }
    const body = await readBytes(req);
    const [version, id, edge] = parts;
    if (version !== state.version) return violation(res, `unexpected API version ${version}`);
    if (req.method === 'GET' && id === 'oauth' && edge === 'access_token') return exchange(res, url);
    const token = bearer(req);
    if (req.method === 'GET' && id === state.pageId && url.searchParams.get('fields') === 'access_token') {
      if (token !== state.userToken) return metaError(res, 400, 190, 'Invalid OAuth access token.');
      state.pageToken = `EAAPage${randomBytes(8).toString('hex')}`;
      return json(res, 200, { access_token: state.pageToken, id: state.pageId });
    }
    if (token !== state.pageToken) {
      metaError(res, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
      return;
    }
    if (req.method === 'POST' && id === state.pageId && edge === 'video_reels')
      return videoReels(res, parseJsonBody(body));
    if (req.method === 'GET' && id === 'me')
      return json(res, 200, { id: state.pageId, name: 'Paper Crafts' });
    const video = state.videos.find((v) => v.id === id);
    if (req.method === 'GET' && video && url.searchParams.get('fields') === 'status')
      return videoStatus(res, video);
    metaError(res, 400, 100, `Unsupported ${req.method} request to ${url.pathname}`);
  });
  state.baseUrl = server.baseUrl;

  return {
    baseUrl: server.baseUrl,
    version: state.version,
    pageId: state.pageId,
    get pageToken() {
      return state.pageToken;
    },
    get userToken() {
      return state.userToken;
    },
    appId: state.appId,
    appSecret: state.appSecret,
    videos: state.videos,
    get startAttempts() {
      return state.startAttempts;
    },
    violations: state.violations,
    rateLimitNextStarts: (kinds) => {
      state.rateLimits.push(...kinds);
    },
    dropAt: (offset) => {
      state.dropOffset = offset;
    },
    close: () => server.close(),
  };
}
