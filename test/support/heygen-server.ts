// A loopback server speaking HeyGen's v3 API for talking-photo videos: POST /v3/assets (multipart, the file under
// `file`), POST /v3/videos (type "image" with an image asset and an audio asset), GET /v3/videos/{id},
// DELETE /v3/assets/{id}, with `X-Api-Key` checked on every call and errors in HeyGen's { error: { code,
// message } } envelope. A video follows a script chosen by its title: pending, processing, then completed with a
// real MP4 that ffmpeg makes from the uploaded photo and narration in the requested aspect ratio, or a moderation
// refusal, a failed render, a render that never finishes; a 429 with Retry-After and gateway outages can be put in
// front. Every request is recorded so tests can assert what the client sent.
// renderTalkingClip and readForm are shared with the D-ID fake (d-id-server.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { json } from './json-http.ts';

export interface HeyGenScript {
  /**
   * video: completes with a clip made from the uploads; refused: fails with a moderation reason; failed: fails
   * with an internal error; never: stays processing.
   */
  outcome: 'video' | 'refused' | 'failed' | 'never';
  /** Polls answered `pending`; default 1. */
  pending?: number;
  /** Polls answered `processing` before the end; default 1. */
  processing?: number;
  /** The first create call answers 429 with this Retry-After (seconds). */
  createRateLimitOnceSec?: number;
  /** The first N status polls answer 502 from the gateway (no HeyGen error body). */
  outages?: number;
}

export interface RecordedHeyGenRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  contentType: string | undefined;
  /** JSON bodies parsed; multipart bodies as { field: { name, type, size } }. */
  body: unknown;
  at: number;
}

interface Asset {
  id: string;
  type: string;
  bytes: Buffer;
  deleted: boolean;
}

interface Video {
  id: string;
  script: HeyGenScript;
  aspectRatio: string;
  photo: Asset;
  audio: Asset;
  polls: number;
  outagesLeft: number;
  file?: Buffer;
}

export interface HeyGenServer {
  baseUrl: string;
  apiKey: string;
  requests: RecordedHeyGenRequest[];
  /** Scripts the video whose title is `title`; other titles get { outcome: 'video' }. */
  script(title: string, script: HeyGenScript): void;
  asset(id: string): { type: string; deleted: boolean } | undefined;
  video(id: string): { polls: number } | undefined;
  close(): Promise<void>;
}

export const HEYGEN_REFUSAL_MESSAGE =
  'The photo was flagged by content moderation and cannot be used to generate a video.';

const ASPECT_FRAMES: Record<string, { width: number; height: number }> = {
  '9:16': { width: 180, height: 320 },
  '16:9': { width: 320, height: 180 },
  '1:1': { width: 240, height: 240 },
};

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A multipart/form-data body parsed by the platform's own parser; null when it is not one. */
export async function readForm(contentType: string | undefined, raw: Buffer): Promise<FormData | null> {
  if (!contentType?.startsWith('multipart/form-data')) return null;
  try {
    return await new Request('http://fake.local/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
  } catch {
    return null;
  }
}

/** The uploaded file under `field`, or null. */
export async function formFile(
  form: FormData | null,
  field: string,
): Promise<{ name: string; type: string; bytes: Buffer } | null> {
  const value = form?.get(field);
  if (!value || typeof value === 'string') return null;
  return { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
}

/** Whether the bytes are a picture in one of `formats`, as sharp reads them. */
export async function isImage(bytes: Buffer, formats: string[]): Promise<boolean> {
  try {
    const { format } = await sharp(bytes).metadata();
    return formats.includes(format);
  } catch {
    return false;
  }
}

/** What a talking-photo provider hands back: the photo, fitted to the frame, held for the length of the audio. */
export async function renderTalkingClip(
  photo: Buffer,
  audio: Buffer,
  frame: { width: number; height: number },
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'talking-clip-'));
  try {
    await writeFile(join(dir, 'photo'), photo);
    await writeFile(join(dir, 'audio'), audio);
    const out = join(dir, 'clip.mp4');
    const { width, height } = frame;
    // As long as the narration: -shortest overshoots with a looped picture.
    const { durationSec } = await probeMedia(join(dir, 'audio'));
    await runFfmpeg(
      [
        '-y',
        '-loop',
        '1',
        '-framerate',
        '12',
        '-i',
        join(dir, 'photo'),
        '-i',
        join(dir, 'audio'),
        '-vf',
        `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},format=yuv420p`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-t',
        durationSec.toFixed(3),
        '-movflags',
        '+faststart',
        out,
      ],
      { timeoutMs: 60_000 },
    );
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function heygenError(res: ServerResponse, status: number, code: string, message: string, headers = {}): void {
  json(
    res,
    status,
    { error: { code, message, doc_url: `https://developers.heygen.com/docs/error-codes#${code}` } },
    headers,
  );
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const AUDIO_TYPES = ['audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav'];

export async function startHeyGenServer(options: { apiKey?: string } = {}): Promise<HeyGenServer> {
  const apiKey = options.apiKey ?? 'heygen-test-key';
  const scripts = new Map<string, HeyGenScript>();
  const assets = new Map<string, Asset>();
  const videos = new Map<string, Video>();
  const createLimited = new Set<string>();
  const requests: RecordedHeyGenRequest[] = [];
  let counter = 0;
  let origin = '';

  const view = async (video: Video) => {
    const { script } = video;
    const pending = script.pending ?? 1;
    const processing = script.processing ?? 1;
    const base = { id: video.id, title: null, created_at: 1_780_000_000, output_language: null };
    if (video.polls <= pending) return { ...base, status: 'pending' };
    if (script.outcome === 'never' || video.polls <= pending + processing) {
      return { ...base, status: 'processing' };
    }
    if (script.outcome === 'refused') {
      return {
        ...base,
        status: 'failed',
        failure_code: 'content_moderation',
        failure_message: HEYGEN_REFUSAL_MESSAGE,
      };
    }
    if (script.outcome === 'failed') {
      return {
        ...base,
        status: 'failed',
        failure_code: 'internal_error',
        failure_message: 'Video rendering failed, please try again.',
      };
    }
    const frame = ASPECT_FRAMES[video.aspectRatio] ?? { width: 320, height: 180 };
    video.file ??= await renderTalkingClip(video.photo.bytes, video.audio.bytes, frame);
    return {
      ...base,
      status: 'completed',
      video_url: `${origin}/files/${video.id}.mp4?Expires=1780600000&Signature=fake`,
      thumbnail_url: null,
      duration: null,
      completed_at: 1_780_000_100,
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
    const key = req.headers['x-api-key'];
    requests.push({
      method: req.method ?? '',
      path,
      apiKey: Array.isArray(key) ? key.join(',') : key,
      contentType,
      body,
      at: Date.now(),
    });

    const file = /^\/files\/([^/]+)\.mp4$/.exec(path);
    if (file) {
      const video = videos.get(file[1] ?? '');
      if (!video?.file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.file.length) });
      return void res.end(video.file);
    }
    if (key !== apiKey) {
      return heygenError(
        res,
        401,
        'unauthorized',
        'Invalid or missing API key. Send it in the X-Api-Key header.',
      );
    }

    if (req.method === 'POST' && path === '/v3/assets') {
      const upload = await formFile(form, 'file');
      if (!upload || upload.bytes.length === 0) {
        return heygenError(res, 400, 'invalid_parameter', 'A file is required under the "file" field.');
      }
      const image = IMAGE_TYPES.includes(upload.type);
      if (!image && !AUDIO_TYPES.includes(upload.type)) {
        return heygenError(res, 400, 'invalid_parameter', `Unsupported file type ${upload.type}.`);
      }
      if (image && !(await isImage(upload.bytes, ['jpeg', 'png']))) {
        return heygenError(res, 400, 'invalid_parameter', 'The image could not be read.');
      }
      const id = `asset_${++counter}`;
      assets.set(id, { id, type: upload.type, bytes: upload.bytes, deleted: false });
      return json(res, 200, {
        data: {
          asset_id: id,
          url: `${origin}/assets/${id}`,
          mime_type: upload.type,
          size_bytes: upload.bytes.length,
        },
      });
    }

    const assetPath = /^\/v3\/assets\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && assetPath) {
      const asset = assets.get(assetPath[1] ?? '');
      if (!asset || asset.deleted) return heygenError(res, 404, 'not_found', 'Asset not found.');
      asset.deleted = true;
      return json(res, 200, { data: { id: asset.id } });
    }

    if (req.method === 'POST' && path === '/v3/videos') {
      const request = (body ?? {}) as Record<string, any>;
      const title = typeof request.title === 'string' ? request.title : '';
      const script = scripts.get(title) ?? { outcome: 'video' };
      if (script.createRateLimitOnceSec !== undefined && !createLimited.has(title)) {
        createLimited.add(title);
        return heygenError(res, 429, 'rate_limit_exceeded', 'Too many requests.', {
          'retry-after': String(script.createRateLimitOnceSec),
        });
      }
      if (request.type !== 'image' || request.image?.type !== 'asset_id') {
        return heygenError(
          res,
          400,
          'invalid_parameter',
          'type "image" with an image asset is expected here.',
        );
      }
      const photo = assets.get(String(request.image.asset_id));
      const audio = assets.get(String(request.audio_asset_id));
      if (!photo || photo.deleted || !IMAGE_TYPES.includes(photo.type)) {
        return heygenError(res, 400, 'invalid_parameter', 'image.asset_id is not an uploaded image.');
      }
      if (!audio || audio.deleted || !AUDIO_TYPES.includes(audio.type)) {
        return heygenError(res, 400, 'invalid_parameter', 'audio_asset_id is not an uploaded audio file.');
      }
      if (request.script !== undefined || request.voice_id !== undefined) {
        return heygenError(
          res,
          400,
          'invalid_parameter',
          'script is mutually exclusive with audio_asset_id.',
        );
      }
      const aspectRatio = request.aspect_ratio ?? '16:9';
      if (!['16:9', '9:16', '4:5', '5:4', '1:1', 'auto'].includes(aspectRatio)) {
        return heygenError(res, 400, 'invalid_parameter', 'aspect_ratio is not supported.');
      }
      const id = `vid_${++counter}`;
      videos.set(id, { id, script, aspectRatio, photo, audio, polls: 0, outagesLeft: script.outages ?? 0 });
      return json(res, 200, { data: { video_id: id, status: 'waiting', output_format: 'mp4' } });
    }

    const videoPath = /^\/v3\/videos\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && videoPath) {
      const video = videos.get(videoPath[1] ?? '');
      if (!video) return heygenError(res, 404, 'video_not_found', 'Video not found.');
      if (video.outagesLeft > 0) {
        video.outagesLeft--;
        return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
      }
      video.polls++;
      return json(res, 200, { data: await view(video) });
    }
    return heygenError(res, 404, 'not_found', `No route ${req.method} ${path}.`);
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
    script: (title, script) => scripts.set(title, script),
    asset: (id) => assets.get(id),
    video: (id) => videos.get(id),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
