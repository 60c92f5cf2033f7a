// A loopback server speaking X's v2 chunked media upload and post creation: POST /2/media/upload/initialize (JSON),
// POST /2/media/upload/{id}/append (multipart: segment_index + media, at most 5 MB, indexes in order — the segment
// not yet acknowledged may be sent again, an acknowledged one may not), POST …/finalize (the segments must add up to
// total_bytes) with processing_info, GET /2/media/upload?command=STATUS until succeeded, and POST /2/tweets with the
// media id. POST /2/oauth2/token runs the refresh grant for a confidential client (HTTP Basic) and rotates the
// refresh token. Errors are X's problem bodies; 429s carry x-rate-limit-* headers or Retry-After.
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

const MAX_SEGMENT = 5_000_000;

export interface XAppend {
  segmentIndex: number | undefined;
  arrived: number;
  dropped: boolean;
}

export interface XMedia {
  id: string;
  totalBytes: number;
  category: string;
  segments: Buffer[];
  appends: XAppend[];
  finalized: boolean;
  statusPolls: number;
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
}

export type XRateLimit = 'retry-after' | 'reset-header';

export interface XFake {
  baseUrl: string;
  accessToken: string;
  refreshToken: string;
  clientId: string;
  clientSecret: string;
  media: XMedia[];
  posts: Record<string, unknown>[];
  initAttempts: number;
  violations: string[];
  rateLimitNextInits(kinds: XRateLimit[]): void;
  /** The next APPEND of this segment index is cut half way. */
  dropSegment(index: number): void;
  /** The next media fails processing. */
  failNextProcessing(): void;
  close(): Promise<void>;
}

function problem(res: ServerResponse, status: number, title: string, detail: string, headers = {}): void {
  json(res, status, { title, detail, type: 'about:blank', status }, headers);
}

export async function startXServer(options: { inProgressPolls?: number } = {}): Promise<XFake> {
  const state = {
    accessToken: `xat-${randomBytes(8).toString('hex')}`,
    refreshToken: `xrt-${randomBytes(8).toString('hex')}`,
    clientId: 'X-client-id-test',
    clientSecret: 'x-client-secret',
    media: [] as XMedia[],
    posts: [] as Record<string, unknown>[],
    initAttempts: 0,
    violations: [] as string[],
    rateLimits: [] as XRateLimit[],
    dropIndex: undefined as number | undefined,
    failProcessing: false,
  };

  const violation = (res: ServerResponse, message: string): void => {
    state.violations.push(message);
    problem(res, 400, 'Invalid Request', message);
  };

  function initialize(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    state.initAttempts++;
    const limit = state.rateLimits.shift();
    if (limit) {
      const headers =
        limit === 'retry-after'
          ? { 'retry-after': '0' }
          : {
              'x-rate-limit-limit': '500',
              'x-rate-limit-remaining': '0',
              'x-rate-limit-reset': String(Math.floor(Date.now() / 1000)),
            };
      problem(res, 429, 'Too Many Requests', 'Too Many Requests', headers);
      return;
    }
    const total = Number(body?.total_bytes);
    if (body?.media_type !== 'video/mp4') return violation(res, 'media_type must be video/mp4');
    if (!Number.isInteger(total) || total <= 0) return violation(res, 'total_bytes is required');
    if (!['tweet_video', 'amplify_video'].includes(String(body.media_category))) {
      return violation(res, 'media_category is not a video category');
    }
    const media: XMedia = {
      id: String(1880000000000000000n + BigInt(randomBytes(4).readUInt32BE(0))),
      totalBytes: total,
      category: String(body.media_category),
      segments: [],
      appends: [],
      finalized: false,
      statusPolls: 0,
      state: 'pending',
    };
    state.media.push(media);
    json(res, 200, { data: { id: media.id, media_key: `13_${media.id}`, expires_after_secs: 86400 } });
  }

  async function append(req: IncomingMessage, res: ServerResponse, media: XMedia): Promise<void> {
    const type = String(req.headers['content-type']);
    if (!type.startsWith('multipart/form-data')) {
      await readBytes(req);
      return violation(res, 'APPEND must be multipart/form-data');
    }
    const length = Number(req.headers['content-length']);
    if (state.dropIndex === media.segments.length) {
      state.dropIndex = undefined;
      const { arrived } = await readThenDrop(req, Math.floor(length / 2));
      media.appends.push({ segmentIndex: undefined, arrived: arrived.length, dropped: true });
      return;
    }
    const raw = await readBytes(req);
    const form = await new Request('http://x.invalid/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: raw,
    }).formData();
    const index = Number(form.get('segment_index'));
    const file = form.get('media');
    media.appends.push({ segmentIndex: index, arrived: raw.length, dropped: false });
    if (!Number.isInteger(index) || index < 0 || index > 999)
      return violation(res, 'segment_index must be 0-999');
    if (index !== media.segments.length) {
      return violation(res, `segment ${index} out of order; ${media.segments.length} segments acknowledged`);
    }
    if (!(file instanceof Blob)) return violation(res, 'media must be a file part');
    if (file.size > MAX_SEGMENT) return violation(res, 'a segment must be at most 5 MB');
    media.segments.push(Buffer.from(await file.arrayBuffer()));
    json(res, 200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } });
  }

  function finalize(res: ServerResponse, media: XMedia): void {
    const size = media.segments.reduce((sum, s) => sum + s.length, 0);
    if (size !== media.totalBytes)
      return violation(res, `segments add up to ${size}, not total_bytes ${media.totalBytes}`);
    media.finalized = true;
    json(res, 200, {
      data: {
        id: media.id,
        media_key: `13_${media.id}`,
        size,
        expires_after_secs: 86400,
        processing_info: { state: 'pending', check_after_secs: 0 },
      },
    });
  }

  function status(res: ServerResponse, media: XMedia): void {
    if (!media.finalized) return violation(res, 'STATUS before FINALIZE');
    media.statusPolls++;
    if (media.statusPolls <= (options.inProgressPolls ?? 1)) {
      media.state = 'in_progress';
      json(res, 200, {
        data: {
          id: media.id,
          processing_info: { state: 'in_progress', check_after_secs: 0, progress_percent: 40 },
        },
      });
      return;
    }
    if (state.failProcessing) {
      state.failProcessing = false;
      media.state = 'failed';
      json(res, 200, {
        data: {
          id: media.id,
          processing_info: {
            state: 'failed',
            progress_percent: 100,
            error: {
              code: 1,
              name: 'InvalidMedia',
              message: 'Invalid or Unsupported media, Reason: UnsupportedMedia.',
            },
          },
        },
      });
      return;
    }
    media.state = 'succeeded';
    json(res, 200, {
      data: { id: media.id, processing_info: { state: 'succeeded', progress_percent: 100 } },
    });
  }

  function createPost(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    const ids = (body?.media as { media_ids?: unknown } | undefined)?.media_ids;
    const media = state.media.find((m) => Array.isArray(ids) && ids[0] === m.id);
    if (typeof body?.text !== 'string' || body.text.length > 280)
      return violation(res, 'text is required, 280 at most');
    if (!media) return violation(res, 'media.media_ids must name an uploaded media id');
    if (media.state !== 'succeeded') {
      problem(res, 400, 'Invalid Request', 'Your media IDs are invalid.');
      return;
    }
    state.posts.push(body);
    const id = String(1445880548472328192n + BigInt(state.posts.length));
    json(res, 201, { data: { id, edit_history_tweet_ids: [id], text: body.text } });
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = formFields(await readBytes(req));
    const basic = `Basic ${Buffer.from(`${state.clientId}:${state.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== basic || form.client_id !== state.clientId) {
      json(res, 401, {
        error: 'unauthorized_client',
        error_description: 'Missing valid authorization header',
      });
      return;
    }
    if (form.grant_type !== 'refresh_token' || form.refresh_token !== state.refreshToken) {
      json(res, 400, {
        error: 'invalid_request',
        error_description: 'Value passed for the token was invalid.',
      });
      return;
    }
    state.accessToken = `xat-${randomBytes(8).toString('hex')}`;
    state.refreshToken = `xrt-${randomBytes(8).toString('hex')}`;
    json(res, 200, {
      token_type: 'bearer',
      expires_in: 7200,
      access_token: state.accessToken,
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      refresh_token: state.refreshToken,
    });
  }

  const server = await startLoopback(async (req, res, url) => {
    if (req.method === 'POST' && url.pathname === '/2/oauth2/token') return token(req, res);
    const match = /^\/2\/media\/upload\/(\d+)\/(append|finalize)$/.exec(url.pathname);
    const media = state.media.find((m) => m.id === (match?.[1] ?? url.searchParams.get('media_id')));
    if (bearer(req) !== state.accessToken) {
      await readBytes(req);
      problem(res, 401, 'Unauthorized', 'Unauthorized');
      return;
    }
    if (req.method === 'POST' && match?.[2] === 'append' && media) return append(req, res, media);
    const body = await readBytes(req);
    if (req.method === 'POST' && url.pathname === '/2/media/upload/initialize')
      return initialize(res, parseJsonBody(body));
    if (req.method === 'POST' && match?.[2] === 'finalize' && media) return finalize(res, media);
    if (
      req.method === 'GET' &&
      url.pathname === '/2/media/upload' &&
      media &&
      url.searchParams.get('command') === 'STATUS'
    ) {
      return status(res, media);
    }
    if (req.method === 'POST' && url.pathname === '/2/tweets') return createPost(res, parseJsonBody(body));
    problem(res, 404, 'Not Found Error', `no route ${req.method} ${url.pathname}`);
  });

  return {
    baseUrl: server.baseUrl,
    get accessToken() {
      return state.accessToken;
    },
    get refreshToken() {
      return state.refreshToken;
    },
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    media: state.media,
    posts: state.posts,
    get initAttempts() {
      return state.initAttempts;
    },
    violations: state.violations,
    rateLimitNextInits: (kinds) => {
      state.rateLimits.push(...kinds);
    },
    dropSegment: (index) => {
      state.dropIndex = index;
    },
    failNextProcessing: () => {
      state.failProcessing = true;
    },
    close: () => server.close(),
  };
}
