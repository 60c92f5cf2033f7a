// A loopback server speaking the Instagram API with Instagram Login's reel publishing: POST /{v}/{ig-user}/media
// creates a REELS container and — like Instagram — pulls the video from video_url itself; GET /{v}/{container}
// ?fields=status_code,status answers IN_PROGRESS, then FINISHED (or ERROR with Instagram's text); POST
// /{v}/{ig-user}/media_publish publishes a FINISHED container once; GET /{v}/{media}?fields=permalink gives the link.
// GET /refresh_access_token?grant_type=ig_refresh_token refreshes a long-lived token. Errors use Meta's body
// ({"error": {"code", "type", "message"}}): an invalid token is code 190 with HTTP 400, as Graph sends it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, json, parseJsonBody, readBytes, startLoopback } from './fake-platform-server.ts';

export interface InstagramContainer {
  id: string;
  body: Record<string, unknown>;
  pulled: Buffer | undefined;
  pollsLeft: number;
  statusCode: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'PUBLISHED';
  errorText?: string;
  polls: number;
}

export type MetaRateLimit = 'http-429' | 'graph-code';

export interface InstagramFake {
  baseUrl: string;
  version: string;
  userId: string;
  accessToken: string;
  containers: InstagramContainer[];
  containerAttempts: number;
  publishes: number;
  permalink: string;
  violations: string[];
  /** The next container requests are refused, one per entry, with a 429 + Retry-After or Graph's code 4. */
  rateLimitNextContainers(kinds: MetaRateLimit[]): void;
  /** The next container ends in ERROR with this status text. */
  failNextContainer(text: string): void;
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

export async function startInstagramServer(
  options: { inProgressPolls?: number } = {},
): Promise<InstagramFake> {
  const state = {
    version: 'v25.0',
    userId: '17841400000000001',
    accessToken: `IGAA${randomBytes(10).toString('hex')}`,
    containers: [] as InstagramContainer[],
    containerAttempts: 0,
    publishes: 0,
    permalink: 'https://www.instagram.com/reel/C0ffeeCrane/',
    mediaIds: new Set<string>(),
    violations: [] as string[],
    rateLimits: [] as MetaRateLimit[],
    nextError: undefined as string | undefined,
  };

  const violation = (res: ServerResponse, message: string): void => {
    state.violations.push(message);
    metaError(res, 400, 100, `Invalid parameter: ${message}`);
  };

  async function createContainer(
    res: ServerResponse,
    body: Record<string, unknown> | undefined,
  ): Promise<void> {
    state.containerAttempts++;
    const limit = state.rateLimits.shift();
    if (limit === 'http-429') {
      metaError(res, 429, 4, 'Application request limit reached', {}, { 'retry-after': '0' });
      return;
    }
    if (limit === 'graph-code') {
      metaError(res, 400, 4, 'Application request limit reached', { is_transient: true });
      return;
    }
    if (!body) return violation(res, 'body must be JSON');
    if (body.media_type !== 'REELS') return violation(res, 'media_type must be REELS');
    if (typeof body.video_url !== 'string') return violation(res, 'video_url is required');
    if (typeof body.caption !== 'string' || [...body.caption].length > 2200)
      return violation(res, 'caption is invalid');
    if (typeof body.share_to_feed !== 'boolean') return violation(res, 'share_to_feed must be a boolean');
    // Instagram fetches the media itself, from the URL it was given.
    let pulled: Buffer | undefined;
    try {
      const download = await fetch(body.video_url);
      if (download.ok) pulled = Buffer.from(await download.arrayBuffer());
    } catch {
      pulled = undefined;
    }
    const failure = state.nextError ?? (pulled ? undefined : 'Error: Media download has failed. (2207003)');
    state.nextError = undefined;
    const container: InstagramContainer = {
      id: `1790${randomBytes(6).readUIntBE(0, 6)}`,
      body,
      pulled,
      pollsLeft: options.inProgressPolls ?? 1,
      statusCode: 'IN_PROGRESS',
      ...(failure ? { errorText: failure } : {}),
      polls: 0,
    };
    state.containers.push(container);
    json(res, 200, { id: container.id });
  }

  function containerStatus(res: ServerResponse, container: InstagramContainer, url: URL): void {
    if (url.searchParams.get('fields') !== 'status_code,status')
      return violation(res, 'ask for status_code,status');
    container.polls++;
    if (container.statusCode === 'IN_PROGRESS' && container.pollsLeft-- <= 0) {
      container.statusCode = container.errorText ? 'ERROR' : 'FINISHED';
    }
    const status =
      container.statusCode === 'ERROR'
        ? container.errorText
        : container.statusCode === 'FINISHED'
          ? 'Finished: Media has been uploaded and it is ready to be published.'
          : 'In Progress: Media is still being processed.';
    json(res, 200, { status_code: container.statusCode, status, id: container.id });
  }

  function publish(res: ServerResponse, body: Record<string, unknown> | undefined): void {
    const container = state.containers.find((c) => c.id === body?.creation_id);
    if (!container) return violation(res, 'creation_id names no container');
    if (container.statusCode !== 'FINISHED') {
      metaError(res, 400, 9007, 'Media ID is not available', { error_subcode: 2207027 });
      return;
    }
    container.statusCode = 'PUBLISHED';
    state.publishes++;
    const mediaId = `1800${randomBytes(6).readUIntBE(0, 6)}`;
    state.mediaIds.add(mediaId);
    json(res, 200, { id: mediaId });
  }

  function refresh(res: ServerResponse, url: URL): void {
    if (url.searchParams.get('grant_type') !== 'ig_refresh_token')
      return violation(res, 'grant_type must be ig_refresh_token');
    if (url.searchParams.get('access_token') !== state.accessToken) {
      metaError(res, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
      return;
    }
    state.accessToken = `IGAA${randomBytes(10).toString('hex')}`;
    json(res, 200, { access_token: state.accessToken, token_type: 'bearer', expires_in: 5183944 });
  }

  const server = await startLoopback(async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const body = await readBytes(req);
    if (req.method === 'GET' && url.pathname === '/refresh_access_token') return refresh(res, url);
    if (bearer(req) !== state.accessToken) {
      metaError(res, 400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 });
      return;
    }
    const [version, id, edge] = url.pathname.split('/').slice(1);
    if (version !== state.version) return violation(res, `unexpected API version ${version}`);
    if (req.method === 'POST' && id === state.userId && edge === 'media') {
      return createContainer(res, parseJsonBody(body));
    }
    if (req.method === 'POST' && id === state.userId && edge === 'media_publish') {
      return publish(res, parseJsonBody(body));
    }
    const container = state.containers.find((c) => c.id === id);
    if (req.method === 'GET' && container && !edge) return containerStatus(res, container, url);
    if (
      req.method === 'GET' &&
      id &&
      state.mediaIds.has(id) &&
      url.searchParams.get('fields') === 'permalink'
    ) {
      json(res, 200, { permalink: state.permalink, id });
      return;
    }
    metaError(res, 400, 100, `Unsupported ${req.method} request to ${url.pathname}`);
  });

  return {
    baseUrl: server.baseUrl,
    version: state.version,
    userId: state.userId,
    get accessToken() {
      return state.accessToken;
    },
    containers: state.containers,
    get containerAttempts() {
      return state.containerAttempts;
    },
    get publishes() {
      return state.publishes;
    },
    permalink: state.permalink,
    violations: state.violations,
    rateLimitNextContainers: (kinds) => {
      state.rateLimits.push(...kinds);
    },
    failNextContainer: (text) => {
      state.nextError = text;
    },
    close: () => server.close(),
  };
}
