// A loopback server speaking fal's queue protocol (POST {model} → request_id and follow-up URLs; GET .../status;
// GET .../requests/{id} for the result; PUT .../cancel), with `Authorization: Key <key>` checked on every call.
// Each request follows a script chosen by its prompt (`script(prompt, ...)`): queued, in progress, then a real
// MP4 served by this same server, or a refusal, a model error, a result URL the guard must refuse, or a request
// that never finishes. Every request is recorded so tests can assert what the client sent.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, readBody } from './json-http.ts';

export interface FalScript {
  /**
   * video: completes with the clip (or `videoUrl`); refused-at-submit: 422 content_policy_violation on submit;
   * refused: completes, and the result is that 422; model-error: completes, and the result is a 504
   * request_timeout error; never: stays IN_PROGRESS.
   */
  outcome: 'video' | 'refused-at-submit' | 'refused' | 'model-error' | 'never';
  /** Polls answered IN_QUEUE (positions counting down to 0); default 2. */
  queued?: number;
  /** Polls answered IN_PROGRESS before completion; default 1. */
  running?: number;
  /** The result's video URL instead of this server's clip. */
  videoUrl?: string;
  /** The first status poll answers 429 with this Retry-After (seconds). */
  rateLimitOnceSec?: number;
  /** The first N status polls answer 503 from the gateway (no fal error body). */
  outages?: number;
}

export interface RecordedFalRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

interface FalRequestState {
  id: string;
  app: string;
  script: FalScript;
  polls: number;
  rateLimited: boolean;
  outagesLeft: number;
  cancelled: boolean;
}

export interface FalQueueServer {
  baseUrl: string;
  key: string;
  requests: RecordedFalRequest[];
  /** Scripts the request whose input prompt is `prompt`; other prompts get { outcome: 'video' }. */
  script(prompt: string, script: FalScript): void;
  /** The state of a request by id (cancelled, polls). */
  request(id: string): { cancelled: boolean; polls: number } | undefined;
  close(): Promise<void>;
}

export async function startFalQueueServer(options: {
  clipPath: string;
  key?: string;
}): Promise<FalQueueServer> {
  const key = options.key ?? 'fal-test-key';
  const clip = await readFile(options.clipPath);
  const scripts = new Map<string, FalScript>();
  const states = new Map<string, FalRequestState>();
  const requests: RecordedFalRequest[] = [];
  let counter = 0;
  let origin = '';

  const urlsFor = (app: string, id: string) => {
    const response = `${origin}/${app}/requests/${id}`;
    return { response_url: response, status_url: `${response}/status`, cancel_url: `${response}/cancel` };
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });

      if (path === '/files/shot.mp4') {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(clip.length) }).end(clip);
        return;
      }
      if (path === '/files/garbage.mp4') {
        res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.from('this is not a video at all'));
        return;
      }
      if (req.headers.authorization !== `Key ${key}`) {
        json(res, 401, { detail: 'No user found for Key ID and Secret' });
        return;
      }
      const match = /^\/(.+?)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
      if (!match) {
        if (req.method !== 'POST') return json(res, 405, { detail: 'Method Not Allowed' });
        const model = path.slice(1);
        const parts = model.split('/');
        const app = parts.slice(0, 2).join('/');
        const prompt = (body as { prompt?: unknown } | null)?.prompt;
        const script = (typeof prompt === 'string' ? scripts.get(prompt) : undefined) ?? { outcome: 'video' };
        if (script.outcome === 'refused-at-submit') {
          return json(res, 422, {
            detail: [
              {
                loc: ['body', 'prompt'],
                msg: 'The content was flagged by a content checker.',
                type: 'content_policy_violation',
                url: 'https://docs.fal.ai/errors#content_policy_violation',
                input: prompt,
              },
            ],
          });
        }
        const id = `req-${++counter}`;
        states.set(id, {
          id,
          app,
          script,
          polls: 0,
          rateLimited: false,
          outagesLeft: script.outages ?? 0,
          cancelled: false,
        });
        return json(res, 200, { request_id: id, ...urlsFor(app, id), queue_position: script.queued ?? 2 });
      }
      const [, app = '', id = '', action] = match;
      const state = states.get(id);
      if (!state || state.app !== app) return json(res, 404, { detail: 'Request not found' });
      const { script } = state;
      const queued = script.queued ?? 2;
      const running = script.running ?? 1;
      const done = script.outcome !== 'never' && state.polls >= queued + running;

      if (action === '/cancel') {
        if (req.method !== 'PUT') return json(res, 405, { detail: 'Method Not Allowed' });
        if (done) return json(res, 400, { status: 'ALREADY_COMPLETED' });
        state.cancelled = true;
        return json(res, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      if (action === '/status') {
        if (script.rateLimitOnceSec !== undefined && !state.rateLimited) {
          state.rateLimited = true;
          return json(
            res,
            429,
            { detail: 'Too many requests' },
            { 'retry-after': String(script.rateLimitOnceSec) },
          );
        }
        if (state.outagesLeft > 0) {
          state.outagesLeft--;
          res
            .writeHead(503, { 'content-type': 'text/html' })
            .end('<html><body>503 Service Unavailable</body></html>');
          return;
        }
        const poll = state.polls++;
        const urls = urlsFor(app, id);
        if (poll < queued) {
          return json(res, 202, { status: 'IN_QUEUE', queue_position: queued - poll - 1, ...urls });
        }
        if (script.outcome === 'never' || poll < queued + running) {
          return json(res, 202, { status: 'IN_PROGRESS', logs: null, ...urls });
        }
        return json(res, 200, { status: 'COMPLETED', logs: null, metrics: { inference_time: 1.5 }, ...urls });
      }
      if (!done) return json(res, 400, { detail: 'Request is still in progress' });
      if (script.outcome === 'refused') {
        return json(res, 422, {
          detail: [
            {
              loc: ['body', 'image_url'],
              msg: 'The content was flagged by a content checker.',
              type: 'content_policy_violation',
              url: 'https://docs.fal.ai/errors#content_policy_violation',
              categories: ['violence'],
            },
          ],
        });
      }
      if (script.outcome === 'model-error') {
        return json(
          res,
          504,
          { detail: 'Request timed out', error_type: 'request_timeout' },
          { 'x-fal-error-type': 'request_timeout' },
        );
      }
      const url = script.videoUrl ?? `${origin}/files/shot.mp4`;
      return json(res, 200, {
        video: { url, content_type: 'video/mp4', file_name: 'shot.mp4', file_size: clip.length },
      });
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    key,
    requests,
    script: (prompt, script) => scripts.set(prompt, script),
    request: (id) => states.get(id),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
