// A loopback server speaking D-ID's talks API: POST /images (multipart, `image`), POST /audios (multipart,
// `audio`) → 201 { id, url: s3://… }, POST /talks with an audio script → 201 { id, status: created },
// GET /talks/{id}, DELETE /images/{id} and /audios/{id} → 204, with `Authorization: Basic <key>` checked on every
// call and errors as D-ID's { kind, description }. A talk follows a script chosen by its name: created, started,
// then done with a real MP4 that ffmpeg makes from the uploaded photo and narration (the photo's whole frame when
// `stitch` is on, else a square face crop, as D-ID does), or a moderation rejection, a 451 refusal at creation,
// a failed talk, a talk that never finishes; a 429 can be put in front of the first poll. Every request is
// recorded so tests can assert what the client sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { formFile, isImage, readForm, readRaw, renderTalkingClip } from './heygen-server.ts';
import { json } from './json-http.ts';

export interface DIdScript {
  /**
   * video: done with a clip made from the uploads; rejected: the talk ends `rejected` by moderation;
   * refused-at-create: POST /talks answers 451 ImageModerationError; error: the talk ends `error` (FaceError);
   * never: stays `started`.
   */
  outcome: 'video' | 'rejected' | 'refused-at-create' | 'error' | 'never';
  /** Polls answered `created`; default 1. */
  created?: number;
  /** Polls answered `started` before the end; default 1. */
  started?: number;
  /** The first poll answers 429; with this Retry-After (seconds) when given, else none. */
  pollRateLimitOnce?: { retryAfterSec?: number };
}

export interface RecordedDIdRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** JSON bodies parsed; multipart bodies as { field: { name, type, size } }. */
  body: unknown;
  at: number;
}

interface Upload {
  id: string;
  url: string;
  type: string;
  bytes: Buffer;
  deleted: boolean;
}

interface Talk {
  id: string;
  name: string;
  script: DIdScript;
  stitch: boolean;
  source: Upload;
  audio: Upload;
  polls: number;
  pollLimited: boolean;
  file?: Buffer;
}

export interface DIdServer {
  baseUrl: string;
  apiKey: string;
  requests: RecordedDIdRequest[];
  /** Scripts the talk whose name is `name`; other names get { outcome: 'video' }. */
  script(name: string, script: DIdScript): void;
  upload(id: string): { type: string; deleted: boolean } | undefined;
  talk(id: string): { polls: number } | undefined;
  close(): Promise<void>;
}

const USER = 'google-oauth2|1234567890';
/** D-ID's face-crop output without stitch. */
const FACE_FRAME = { width: 256, height: 256 };
const LONG_EDGE = 320;

function didError(
  res: ServerResponse,
  status: number,
  kind: string,
  description: string,
  headers = {},
): void {
  json(res, status, { kind, description }, headers);
}

/** The photo's own frame, scaled to a small long edge (even sides for H.264). */
async function stitchedFrame(photo: Buffer): Promise<{ width: number; height: number }> {
  const { width, height } = await sharp(photo).metadata();
  const scale = LONG_EDGE / Math.max(width, height);
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

export async function startDIdServer(options: { apiKey?: string } = {}): Promise<DIdServer> {
  // D-ID hands keys out as "API_USERNAME:API_PASSWORD", the username part base64.
  const apiKey = options.apiKey ?? 'ZmFrZUBleGFtcGxlLmNvbQ:fake-did-secret';
  const scripts = new Map<string, DIdScript>();
  const uploads = new Map<string, Upload>();
  const talks = new Map<string, Talk>();
  const requests: RecordedDIdRequest[] = [];
  let counter = 0;
  let origin = '';

  const byUrl = (url: unknown) => [...uploads.values()].find((u) => u.url === url && !u.deleted);

  const view = async (talk: Talk) => {
    const { script } = talk;
    const created = script.created ?? 1;
    const started = script.started ?? 1;
    const base = {
      id: talk.id,
      user_id: USER,
      source_url: `https://d-id-talks-prod.s3.us-west-2.amazonaws.com/${talk.id}/source/image.jpeg`,
      created_at: '2026-11-20T10:00:00.000Z',
      created_by: USER,
      modified_at: '2026-11-20T10:00:05.000Z',
      config: { stitch: talk.stitch, result_format: 'mp4' },
    };
    if (talk.polls <= created) return { ...base, status: 'created' };
    if (script.outcome === 'never' || talk.polls <= created + started) {
      return { ...base, status: 'started', started_at: '2026-11-20T10:00:02.000Z' };
    }
    if (script.outcome === 'rejected') {
      return {
        ...base,
        status: 'rejected',
        error: {
          kind: 'ImageModerationError',
          description:
            'Automatic content moderation - contact support if you would like to submit for manual review',
        },
      };
    }
    if (script.outcome === 'error') {
      return { ...base, status: 'error', error: { kind: 'FaceError', description: 'face not detected' } };
    }
    const frame = talk.stitch ? await stitchedFrame(talk.source.bytes) : FACE_FRAME;
    talk.file ??= await renderTalkingClip(talk.source.bytes, talk.audio.bytes, frame);
    return {
      ...base,
      status: 'done',
      result_url: `${origin}/results/${talk.id}.mp4?AWSAccessKeyId=FAKE&Expires=1780600000&Signature=fake`,
      duration: 2,
      metadata: { num_faces: 1, resolution: [frame.width, frame.height] },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readRaw(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const contentType = req.headers['content-type'];
    const form = await readForm(contentType, raw);
    let body: unknown = null;
    if (form) {
      const summary: Record<string, unknown> = {};
      for (const [field, value] of form.entries()) {
        summary[field] =
          typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
      }
      body = summary;
    } else if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
    }
    requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      contentType,
      body,
      at: Date.now(),
    });

    const result = /^\/results\/([^/]+)\.mp4$/.exec(path);
    if (result) {
      const talk = talks.get(result[1] ?? '');
      if (!talk?.file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(talk.file.length) });
      return void res.end(talk.file);
    }
    if (req.headers.authorization !== `Basic ${apiKey}`) {
      return didError(res, 401, 'AuthorizationError', 'user unauthenticated');
    }

    if (req.method === 'POST' && (path === '/images' || path === '/audios')) {
      const image = path === '/images';
      const upload = await formFile(form, image ? 'image' : 'audio');
      if (!upload || upload.bytes.length === 0) {
        return didError(res, 400, 'BadRequestError', image ? 'invalid image' : 'invalid audio');
      }
      const typeOk = image
        ? ['image/jpeg', 'image/png'].includes(upload.type)
        : /^(audio|video)\//.test(upload.type);
      if (!typeOk) {
        return json(res, 415, {
          kind: 'UnsupportedMimeTypeError',
          description: 'The provided mime type is not supported',
          details: {
            received: upload.type,
            supported: image ? ['image/jpeg', 'image/png'] : ['audio/*', 'video/*'],
          },
        });
      }
      if (image && !(await isImage(upload.bytes, ['jpeg', 'png']))) {
        return didError(res, 400, 'BadRequestError', 'invalid image');
      }
      if (!image && upload.bytes.length > 6 * 1024 * 1024) {
        return didError(res, 400, 'InvalidFileSizeError', 'the file must not exceed 6MB in size');
      }
      const id = `${image ? 'img' : 'aud'}_${++counter}`;
      const url = image
        ? `s3://d-id-images-prod/${USER}/${id}/image.jpeg`
        : `s3://d-id-audios-prod/${USER}/${id}/audio.wav`;
      uploads.set(id, { id, url, type: upload.type, bytes: upload.bytes, deleted: false });
      return json(res, 201, image ? { id, url } : { id, url, duration: 2, moderation_metadata: {} });
    }

    const uploadPath = /^\/(images|audios)\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && uploadPath) {
      const upload = uploads.get(uploadPath[2] ?? '');
      if (!upload || upload.deleted) {
        return didError(
          res,
          404,
          'NotFoundError',
          `${uploadPath[1] === 'images' ? 'image' : 'audio'} not found`,
        );
      }
      upload.deleted = true;
      return void res.writeHead(204).end();
    }

    if (req.method === 'POST' && path === '/talks') {
      const request = (body ?? {}) as Record<string, any>;
      const name = typeof request.name === 'string' ? request.name : '';
      const script = scripts.get(name) ?? { outcome: 'video' };
      if (request.script?.type !== 'audio' || typeof request.script.audio_url !== 'string') {
        return json(res, 400, {
          kind: 'ValidationError',
          description: 'validation failed',
          details: { 'body.script': { message: 'an audio script with audio_url is expected here' } },
        });
      }
      const source = byUrl(request.source_url);
      const audio = byUrl(request.script.audio_url);
      if (!source || !source.url.startsWith('s3://d-id-images-prod/')) {
        return didError(res, 400, 'BadRequestError', 'invalid source url');
      }
      if (!audio || !audio.url.startsWith('s3://d-id-audios-prod/')) {
        return didError(res, 400, 'BadRequestError', 'invalid audio url');
      }
      if (script.outcome === 'refused-at-create') {
        return didError(
          res,
          451,
          'ImageModerationError',
          'Automatic content moderation - contact support if you would like to submit for manual review',
        );
      }
      const id = `tlk_${++counter}`;
      talks.set(id, {
        id,
        name,
        script,
        stitch: request.config?.stitch === true,
        source,
        audio,
        polls: 0,
        pollLimited: false,
      });
      return json(res, 201, {
        id,
        object: 'talk',
        created_at: '2026-11-20T10:00:00.000Z',
        created_by: USER,
        status: 'created',
      });
    }

    const talkPath = /^\/talks\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && talkPath) {
      const talk = talks.get(talkPath[1] ?? '');
      if (!talk) return didError(res, 404, 'NotFoundError', 'not found');
      const limit = talk.script.pollRateLimitOnce;
      if (limit && !talk.pollLimited) {
        talk.pollLimited = true;
        const headers =
          limit.retryAfterSec === undefined ? {} : { 'retry-after': String(limit.retryAfterSec) };
        return didError(res, 429, 'TooManyRequests', 'Too many requests', headers);
      }
      talk.polls++;
      return json(res, 200, await view(talk));
    }
    return didError(res, 404, 'NotFoundError', `no route ${req.method} ${path}`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    apiKey,
    requests,
    script: (name, script) => scripts.set(name, script),
    upload: (id) => uploads.get(id),
    talk: (id) => talks.get(id),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
