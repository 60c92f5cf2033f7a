// A loopback server speaking YouTube's resumable videos.insert protocol and Google's token endpoint:
// POST /upload/youtube/v3/videos?uploadType=resumable&part=… opens a session (Location header), PUT chunks with
// Content-Range must start where the stored bytes end and be multiples of 256 KiB (all but the last), a 308 answers
// each with Range: bytes=0-N, an empty PUT with Content-Range: bytes */total reports the stored range, and the last
// chunk answers 201 with the video resource. A cut connection keeps what arrived, in whole 256 KiB units, as Google
// does. POST /token runs the refresh_token grant. Anything off-protocol is answered 400 and listed in `violations`.
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

const UNIT = 256 * 1024;

export interface YouTubePut {
  start: number;
  end: number;
  arrived: number;
  dropped: boolean;
}

export interface YouTubeSession {
  id: string;
  size: number;
  contentType: string;
  notifySubscribers: string | null;
  resource: Record<string, unknown>;
  stored: Buffer[];
  storedBytes: number;
  puts: YouTubePut[];
  statusChecks: number;
  videoId?: string;
}

export interface YouTubeFake {
  baseUrl: string;
  accessToken: string;
  refreshToken: string;
  clientId: string;
  clientSecret: string;
  sessions: YouTubeSession[];
  /** POSTs that tried to open a session, accepted or not. */
  sessionAttempts: number;
  violations: string[];
  /** The next session request answers 429 with this Retry-After (seconds). */
  rateLimitNextSession(retryAfterSec: number): void;
  /** The next session request answers 403 quotaExceeded. */
  exhaustQuota(): void;
  /** The next upload request covering file offset `offset` is cut once that many bytes of the file arrived. */
  dropAt(offset: number): void;
  /** The finished upload is reported rejected for this reason (YouTube's status.rejectionReason). */
  rejectUpload(reason: string): void;
  close(): Promise<void>;
}

function googleError(
  res: ServerResponse,
  status: number,
  reason: string,
  message: string,
  headers = {},
): void {
  json(
    res,
    status,
    { error: { code: status, message, errors: [{ message, domain: 'youtube', reason }], status: reason } },
    headers,
  );
}

export async function startYouTubeServer(): Promise<YouTubeFake> {
  const state = {
    accessToken: `ya29.${randomBytes(8).toString('hex')}`,
    refreshToken: `1//${randomBytes(8).toString('hex')}`,
    clientId: 'reelsmith-test.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-test-secret',
    sessions: [] as YouTubeSession[],
    sessionAttempts: 0,
    violations: [] as string[],
    rateLimitSec: undefined as number | undefined,
    quotaExhausted: false,
    dropOffset: undefined as number | undefined,
    rejection: undefined as string | undefined,
    baseUrl: '',
  };

  const violation = (res: ServerResponse, message: string): void => {
    state.violations.push(message);
    googleError(res, 400, 'badRequest', message);
  };

  const authorized = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (bearer(req) === state.accessToken) return true;
    googleError(res, 401, 'authError', 'Request had invalid authentication credentials.');
    return false;
  };

  async function openSession(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    state.sessionAttempts++;
    const body = await readBytes(req);
    if (!authorized(req, res)) return;
    if (state.rateLimitSec !== undefined) {
      const retryAfter = String(state.rateLimitSec);
      state.rateLimitSec = undefined;
      googleError(res, 429, 'rateLimitExceeded', 'Too many requests.', { 'retry-after': retryAfter });
      return;
    }
    if (state.quotaExhausted) {
      state.quotaExhausted = false;
      googleError(
        res,
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your quota.',
      );
      return;
    }
    const parts = (url.searchParams.get('part') ?? '').split(',');
    if (url.searchParams.get('uploadType') !== 'resumable')
      return violation(res, 'uploadType must be resumable');
    if (!parts.includes('snippet') || !parts.includes('status'))
      return violation(res, 'part must name snippet,status');
    if (!req.headers['content-type']?.startsWith('application/json'))
      return violation(res, 'metadata must be JSON');
    const size = Number(req.headers['x-upload-content-length']);
    const contentType = String(req.headers['x-upload-content-type'] ?? '');
    if (!Number.isInteger(size) || size <= 0) return violation(res, 'X-Upload-Content-Length is missing');
    if (!contentType.startsWith('video/'))
      return violation(res, 'X-Upload-Content-Type must be a video type');
    const resource = parseJsonBody(body);
    const snippet = resource?.snippet as Record<string, unknown> | undefined;
    const status = resource?.status as Record<string, unknown> | undefined;
    const title = snippet?.title;
    if (typeof title !== 'string' || title.length === 0 || title.length > 100) {
      return violation(res, 'snippet.title must be 1-100 characters');
    }
    if (typeof snippet?.description !== 'string') return violation(res, 'snippet.description is missing');
    if (!['public', 'unlisted', 'private'].includes(String(status?.privacyStatus))) {
      return violation(res, 'status.privacyStatus is not valid');
    }
    if (typeof status?.selfDeclaredMadeForKids !== 'boolean') {
      return violation(res, 'status.selfDeclaredMadeForKids must be declared');
    }
    const id = randomBytes(12).toString('hex');
    state.sessions.push({
      id,
      size,
      contentType,
      notifySubscribers: url.searchParams.get('notifySubscribers'),
      resource: resource ?? {},
      stored: [],
      storedBytes: 0,
      puts: [],
      statusChecks: 0,
    });
    res
      .writeHead(200, {
        location: `${state.baseUrl}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}`,
      })
      .end();
  }

  function answerStored(res: ServerResponse, session: YouTubeSession): void {
    if (session.storedBytes === session.size) {
      session.videoId ??= randomBytes(8).toString('base64url').slice(0, 11);
      const uploadStatus = state.rejection ? 'rejected' : 'uploaded';
      json(res, 201, {
        kind: 'youtube#video',
        id: session.videoId,
        snippet: session.resource.snippet,
        status: {
          ...(session.resource.status as object),
          uploadStatus,
          ...(state.rejection ? { rejectionReason: state.rejection } : {}),
        },
      });
      return;
    }
    const headers: Record<string, string> =
      session.storedBytes > 0 ? { range: `bytes=0-${session.storedBytes - 1}` } : {};
    res.writeHead(308, headers).end();
  }

  async function put(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const session = state.sessions.find((s) => s.id === url.searchParams.get('upload_id'));
    if (!session) {
      await readBytes(req);
      googleError(res, 404, 'notFound', 'Upload session not found');
      return;
    }
    const range = String(req.headers['content-range'] ?? '');
    const query = /^bytes \*\/(\d+)$/.exec(range);
    if (query) {
      await readBytes(req);
      if (!authorized(req, res)) return;
      if (Number(query[1]) !== session.size) return violation(res, 'status check names the wrong total size');
      session.statusChecks++;
      answerStored(res, session);
      return;
    }
    const chunk = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!chunk) {
      await readBytes(req);
      return violation(res, `unreadable Content-Range "${range}"`);
    }
    const [start, last, total] = [Number(chunk[1]), Number(chunk[2]), Number(chunk[3])];
    const length = last - start + 1;
    if (!authorized(req, res)) return void (await readBytes(req));
    const problem =
      total !== session.size
        ? 'Content-Range total differs from X-Upload-Content-Length'
        : start !== session.storedBytes
          ? `chunk starts at ${start} but the server holds ${session.storedBytes} bytes`
          : last + 1 < total && length % UNIT !== 0
            ? `chunk of ${length} bytes is not a multiple of 256 KiB`
            : !String(req.headers['content-type']).startsWith('video/')
              ? 'chunk Content-Type must be the video type'
              : Number(req.headers['content-length']) !== length
                ? 'Content-Length differs from the Content-Range'
                : undefined;
    if (problem) {
      await readBytes(req);
      return violation(res, problem);
    }
    const drop = state.dropOffset !== undefined && state.dropOffset > start && state.dropOffset <= last;
    if (drop) {
      const cut = (state.dropOffset ?? 0) - start;
      state.dropOffset = undefined;
      const { arrived } = await readThenDrop(req, cut);
      const kept = Math.floor(Math.min(arrived.length, length) / UNIT) * UNIT;
      session.stored.push(arrived.subarray(0, kept));
      session.storedBytes += kept;
      session.puts.push({ start, end: last + 1, arrived: arrived.length, dropped: true });
      return;
    }
    const body = await readBytes(req);
    if (body.length !== length) return violation(res, `chunk body is ${body.length} bytes, not ${length}`);
    session.stored.push(body);
    session.storedBytes += length;
    session.puts.push({ start, end: last + 1, arrived: body.length, dropped: false });
    answerStored(res, session);
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = formFields(await readBytes(req));
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return violation(res, 'token request must be form-encoded');
    }
    if (form.client_id !== state.clientId || form.client_secret !== state.clientSecret) {
      json(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      return;
    }
    if (form.grant_type !== 'refresh_token' || form.refresh_token !== state.refreshToken) {
      json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return;
    }
    state.accessToken = `ya29.${randomBytes(8).toString('hex')}`;
    json(res, 200, {
      access_token: state.accessToken,
      expires_in: 3599,
      scope: 'https://www.googleapis.com/auth/youtube.upload',
      token_type: 'Bearer',
    });
  }

  const server = await startLoopback(async (req, res, url) => {
    if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
    if (url.pathname === '/upload/youtube/v3/videos' && req.method === 'POST')
      return openSession(req, res, url);
    if (url.pathname === '/upload/youtube/v3/videos' && req.method === 'PUT') return put(req, res, url);
    await readBytes(req);
    googleError(res, 404, 'notFound', `no route ${req.method} ${url.pathname}`);
  });
  state.baseUrl = server.baseUrl;

  return {
    baseUrl: server.baseUrl,
    get accessToken() {
      return state.accessToken;
    },
    refreshToken: state.refreshToken,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    sessions: state.sessions,
    get sessionAttempts() {
      return state.sessionAttempts;
    },
    violations: state.violations,
    rateLimitNextSession: (sec) => {
      state.rateLimitSec = sec;
    },
    exhaustQuota: () => {
      state.quotaExhausted = true;
    },
    dropAt: (offset) => {
      state.dropOffset = offset;
    },
    rejectUpload: (reason) => {
      state.rejection = reason;
    },
    close: () => server.close(),
  };
}
