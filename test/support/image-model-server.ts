// A loopback server speaking OpenAI's Images API: POST /v1/images/generations with a Bearer key, `model`,
// `prompt`, `size` (1024x1024, 1536x1024 or 1024x1536) and `n`, answered with `data[].b64_json` or `data[].url`
// (the picture then served under /files/), errors in OpenAI's { error: { message, type, code } } envelope, and an
// x-request-id on every answer. Each picture is a PNG of the asked size in one flat colour of PALETTE, taken in
// turn, so a test can find it in a render. Scripted answers can be put in front (429 with Retry-After, 5xx),
// and prompts can be refused with `content_policy_violation`. Every request is recorded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { json, readBody } from './json-http.ts';

export type Rgb = [number, number, number];

/** Flat colours far from each other and from the footage library's clips. */
export const PALETTE: Rgb[] = [
  [220, 40, 200],
  [40, 200, 210],
  [230, 210, 40],
  [50, 70, 215],
  [240, 130, 30],
  [40, 190, 70],
];

export const SIZES = ['1024x1024', '1536x1024', '1024x1536'];

/**
 * An answer put in front of the normal ones: an error status (429 with `retryAfterSec`, 5xx), a refusal, or a
 * 200 whose b64_json is not a picture.
 */
export type ScriptedAnswer =
  { status: number; retryAfterSec?: number } | { refuse: true } | { garbage: true };

export interface RecordedImageRequest {
  authorization: string | undefined;
  body: { model?: unknown; prompt?: unknown; size?: unknown; n?: unknown; quality?: unknown };
  at: number;
  /** What was answered: a status, and the picture's colour when one was made. */
  status: number;
  colour?: Rgb;
}

export interface ImageModelServer {
  baseUrl: string;
  apiKey: string;
  requests: RecordedImageRequest[];
  /** How pictures are answered; default b64_json. */
  delivery: 'b64_json' | 'url';
  /** Answers the next requests in this order before answering normally again. */
  queue(...answers: ScriptedAnswer[]): void;
  /** Refuses every prompt this matches (content_policy_violation); null refuses none. */
  refuse: ((prompt: string) => boolean) | null;
  /** The colour of the picture made for `prompt` (its latest one). */
  colourOf(prompt: string): Rgb | undefined;
  close(): Promise<void>;
}

function error(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export async function startImageModelServer(): Promise<ImageModelServer> {
  const apiKey = 'sk-test-image-model';
  const files = new Map<string, Buffer>();
  const scripted: ScriptedAnswer[] = [];
  const requests: RecordedImageRequest[] = [];
  let made = 0;
  let requestCount = 0;

  const state: ImageModelServer = {
    baseUrl: '',
    apiKey,
    requests,
    delivery: 'b64_json',
    queue: (...answers) => void scripted.push(...answers),
    refuse: null,
    colourOf: (prompt) => requests.findLast((r) => r.body.prompt === prompt && r.colour)?.colour,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const headers = { 'x-request-id': `req_${++requestCount}` };
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'GET' && path.startsWith('/files/')) {
        const file = files.get(path.slice('/files/'.length));
        if (!file) return json(res, 404, error('no such file', 'invalid_request_error', null));
        return res.writeHead(200, { 'content-type': 'image/png' }).end(file);
      }
      if (req.method !== 'POST' || path !== '/v1/images/generations')
        return json(
          res,
          404,
          error(`Unknown request URL: ${req.method} ${path}`, 'invalid_request_error', null),
        );
      const raw = await readBody(req);
      let body: RecordedImageRequest['body'] = {};
      try {
        body = JSON.parse(raw) as RecordedImageRequest['body'];
      } catch {
        body = {};
      }
      const record: RecordedImageRequest = {
        authorization: req.headers.authorization,
        body,
        at: Date.now(),
        status: 200,
      };
      requests.push(record);
      const answer = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
        record.status = status;
        json(res, status, payload, { ...headers, ...extra });
      };
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return answer(401, error('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      const next = scripted.shift();
      if (next && 'status' in next)
        return answer(
          next.status,
          error(`scripted HTTP ${next.status}`, next.status === 429 ? 'requests' : 'server_error', null),
          next.retryAfterSec !== undefined ? { 'retry-after': String(next.retryAfterSec) } : {},
        );
      if (typeof body.prompt !== 'string' || body.prompt.trim() === '')
        return answer(400, error('prompt is required', 'invalid_request_error', null));
      if (typeof body.size !== 'string' || !SIZES.includes(body.size))
        return answer(
          400,
          error(
            `Invalid value: '${String(body.size)}'. Supported values are: ${SIZES.join(', ')}`,
            'invalid_request_error',
            'invalid_value',
          ),
        );
      if (next && 'garbage' in next)
        return answer(200, {
          created: 0,
          data: [{ b64_json: Buffer.from('not a picture').toString('base64') }],
        });
      if (next || state.refuse?.(body.prompt))
        return answer(
          400,
          error(
            'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
            'invalid_request_error',
            'content_policy_violation',
          ),
        );
      const [width, height] = body.size.split('x').map(Number) as [number, number];
      const colour = PALETTE[made++ % PALETTE.length]!;
      const png = await sharp({
        create: { width, height, channels: 3, background: { r: colour[0], g: colour[1], b: colour[2] } },
      })
        .png()
        .toBuffer();
      record.colour = colour;
      const created = Math.floor(Date.now() / 1000);
      if (state.delivery === 'url') {
        const name = `still-${made}.png`;
        files.set(name, png);
        return answer(200, { created, data: [{ url: `${state.baseUrl}/files/${name}` }] });
      }
      answer(200, {
        created,
        data: [{ b64_json: png.toString('base64') }],
        output_format: 'png',
        size: body.size,
        quality: 'medium',
      });
    })().catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, error(String(err), 'server_error', null));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
