// For tests only: a loopback server speaking OpenAI's moderation protocol (POST /v1/moderations with a Bearer
// key; `input` a string or an array of {type: text} / {type: image_url} parts; the answer's id, model and
// results[] with flagged, categories, category_scores and category_applied_input_types). Texts are flagged
// when they contain a marker a test chose; images are decoded from their data URL and flagged when a test's
// predicate holds for their pixels, so a test sees the bytes the client really sent. Failures and delays are
// scripted per request, and every request is recorded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { json, readBody } from './json-http.ts';

/** The categories the documented response lists, and which inputs each applies to. */
const CATEGORIES: Record<string, ('text' | 'image')[]> = {
  harassment: ['text'],
  'harassment/threatening': ['text'],
  hate: ['text'],
  'hate/threatening': ['text'],
  illicit: ['text'],
  'illicit/violent': ['text'],
  'self-harm': ['text', 'image'],
  'self-harm/instructions': ['text', 'image'],
  'self-harm/intent': ['text', 'image'],
  sexual: ['text', 'image'],
  'sexual/minors': ['text'],
  violence: ['text', 'image'],
  'violence/graphic': ['text', 'image'],
};

export interface DecodedImage {
  format: string;
  width: number;
  height: number;
  /** Mean of each channel, 0-255. */
  mean: [number, number, number];
}

export interface RecordedModerationRequest {
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** The images of the request, decoded from their data URLs (https URLs are not fetched). */
  images: DecodedImage[];
}

export interface FakeModerationServer {
  /** Ends in /v1, as MODERATION_BASE_URL does. */
  baseUrl: string;
  apiKey: string;
  requests: RecordedModerationRequest[];
  /** Texts containing `marker` are flagged in `categories`. */
  flagText(marker: string, categories: string[]): void;
  /** Images for which `test` holds are flagged in `categories`. */
  flagImages(test: (image: DecodedImage) => boolean, categories: string[]): void;
  /** The next `count` requests answer `status` with an OpenAI error body (429 with Retry-After: 0). */
  failNext(status: number, count?: number): void;
  /** The next request is answered after `ms` milliseconds. */
  delayNext(ms: number): void;
  /** The next request is answered 200 with this body instead. */
  answerNextWith(body: unknown): void;
  close(): Promise<void>;
}

async function decodeDataUrl(url: string): Promise<DecodedImage> {
  const match = /^data:image\/[a-z0-9.+-]+;base64,(.+)$/i.exec(url);
  if (!match?.[1]) throw new Error('not a base64 image data URL');
  const image = sharp(Buffer.from(match[1], 'base64'));
  const [meta, stats] = await Promise.all([image.metadata(), image.stats()]);
  const [r, g, b] = stats.channels.map((c) => c.mean);
  return {
    format: meta.format ?? 'unknown',
    width: meta.width ?? 0,
    height: meta.height ?? 0,
    mean: [r ?? 0, g ?? 0, b ?? 0],
  };
}

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export async function startFakeModerationServer(
  options: { apiKey?: string } = {},
): Promise<FakeModerationServer> {
  const apiKey = options.apiKey ?? 'sk-moderation-test';
  const requests: RecordedModerationRequest[] = [];
  const textRules: { marker: string; categories: string[] }[] = [];
  const imageRules: { test: (image: DecodedImage) => boolean; categories: string[] }[] = [];
  const failures: number[] = [];
  let delayMs = 0;
  let nextBody: unknown;
  let count = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const body = raw ? (JSON.parse(raw) as { model?: string; input?: string | string[] | Part[] }) : {};
      const parts: Part[] = (Array.isArray(body.input) ? body.input : [body.input ?? '']).map((p) =>
        typeof p === 'string' ? { type: 'text', text: p } : p,
      );
      const images: DecodedImage[] = [];
      for (const part of parts) {
        if (part.type === 'image_url' && part.image_url.url.startsWith('data:'))
          images.push(await decodeDataUrl(part.image_url.url));
      }
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body, images });

      const wait = delayMs;
      delayMs = 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (req.method !== 'POST' || req.url !== '/v1/moderations') {
        json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
        return;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        json(res, 401, {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
        return;
      }
      const failure = failures.shift();
      if (failure !== undefined) {
        json(
          res,
          failure,
          { error: { message: `scripted failure ${failure}`, type: 'server_error' } },
          failure === 429 ? { 'retry-after': '0' } : {},
        );
        return;
      }
      if (nextBody !== undefined) {
        json(res, 200, nextBody);
        nextBody = undefined;
        return;
      }
      const flagged = new Set<string>();
      for (const part of parts) {
        if (part.type === 'text')
          for (const rule of textRules)
            if (part.text.includes(rule.marker)) rule.categories.forEach((c) => flagged.add(c));
      }
      for (const image of images)
        for (const rule of imageRules) if (rule.test(image)) rule.categories.forEach((c) => flagged.add(c));
      const kinds = new Set(parts.map((p) => (p.type === 'text' ? 'text' : 'image')));
      const names = Object.keys(CATEGORIES);
      json(res, 200, {
        id: `modr-${++count}`,
        model: body.model ?? 'omni-moderation-latest',
        // A multi-part input is judged as one whole: one result.
        results: [
          {
            flagged: flagged.size > 0,
            categories: Object.fromEntries(names.map((n) => [n, flagged.has(n)])),
            category_scores: Object.fromEntries(names.map((n) => [n, flagged.has(n) ? 0.93 : 0.0004])),
            category_applied_input_types: Object.fromEntries(
              names.map((n) => [n, (CATEGORIES[n] ?? []).filter((k) => kinds.has(k))]),
            ),
          },
        ],
      });
    })().catch((err: unknown) =>
      json(res, 400, { error: { message: String(err), type: 'invalid_request_error' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    flagText: (marker, categories) => textRules.push({ marker, categories }),
    flagImages: (test, categories) => imageRules.push({ test, categories }),
    failNext: (status, times = 1) => failures.push(...Array<number>(times).fill(status)),
    delayNext: (ms) => (delayMs = ms),
    answerNextWith: (answer) => (nextBody = answer),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
