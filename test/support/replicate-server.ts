// A loopback server speaking Replicate's predictions protocol (POST /v1/models/{owner}/{name}/predictions or
// /v1/predictions with a version → 201 prediction; GET /v1/predictions/{id}; POST /v1/predictions/{id}/cancel),
// with `Authorization: Bearer <token>` checked on every call. Each prediction follows a script chosen by its
// prompt: starting, processing, then succeeded with a real MP4 served by this same server, or a safety refusal
// (E005), a failure mid-way, a result URL the guard must refuse, or a prediction that never finishes. Every
// request is recorded so tests can assert what the client sent.
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, readBody } from './json-http.ts';

export const REPLICATE_SENSITIVE_ERROR =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';

export interface ReplicateScript {
  /** video: succeeds with the clip (or `videoUrl`); refused: fails with E005; error: fails with `error`. */
  outcome: 'video' | 'refused' | 'error' | 'never';
  /** Polls answered `starting`; default 1. */
  starting?: number;
  /** Polls answered `processing` before the end; default 2. */
  processing?: number;
  videoUrl?: string;
  /** The output as a one-item list instead of a string (some models answer that way). */
  outputList?: boolean;
  /** The error message for outcome `error`. */
  error?: string;
  /** The create call answers 429 once with this Retry-After (seconds). */
  createRateLimitOnceSec?: number;
  /** The first poll answers 429 with this Retry-After (seconds). */
  pollRateLimitOnceSec?: number;
}

export interface RecordedReplicateRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

interface Prediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  script: ReplicateScript;
  polls: number;
  pollRateLimited: boolean;
  canceled: boolean;
}

export interface ReplicateServer {
  baseUrl: string;
  token: string;
  requests: RecordedReplicateRequest[];
  script(prompt: string, script: ReplicateScript): void;
  prediction(id: string): { canceled: boolean; polls: number } | undefined;
  close(): Promise<void>;
}

function problem(res: ServerResponse, status: number, title: string, detail: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
  res.end(JSON.stringify({ title, detail, status }));
}

export async function startReplicateServer(options: {
  clipPath: string;
  token?: string;
}): Promise<ReplicateServer> {
  const token = options.token ?? 'r8_test_token';
  const clip = await readFile(options.clipPath);
  const scripts = new Map<string, ReplicateScript>();
  const predictions = new Map<string, Prediction>();
  const requests: RecordedReplicateRequest[] = [];
  const createLimited = new Set<string>();
  let counter = 0;
  let origin = '';

  const view = (p: Prediction) => {
    const { script } = p;
    const starting = script.starting ?? 1;
    const processing = script.processing ?? 2;
    let status = 'starting';
    let output: unknown = null;
    let error: string | null = null;
    if (p.canceled) status = 'canceled';
    else if (p.polls > starting && (script.outcome === 'never' || p.polls <= starting + processing)) {
      status = 'processing';
    } else if (p.polls > starting + processing) {
      if (script.outcome === 'video') {
        status = 'succeeded';
        const url = script.videoUrl ?? `${origin}/files/shot.mp4`;
        output = script.outputList ? [url] : url;
      } else {
        status = 'failed';
        error =
          script.outcome === 'refused' ? REPLICATE_SENSITIVE_ERROR : (script.error ?? 'Prediction failed.');
      }
    }
    const get = `${origin}/v1/predictions/${p.id}`;
    return {
      id: p.id,
      model: p.model,
      version: p.version,
      input: p.input,
      logs: '',
      output,
      data_removed: false,
      error,
      status,
      created_at: new Date().toISOString(),
      urls: { get, cancel: `${get}/cancel`, web: `https://replicate.com/p/${p.id}` },
      ...(status === 'succeeded' ? { metrics: { predict_time: 3.2 } } : {}),
    };
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
      if (req.headers.authorization !== `Bearer ${token}`) {
        return problem(res, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
      }
      const create = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
      if (req.method === 'POST' && (create || path === '/v1/predictions')) {
        const payload = (body ?? {}) as { input?: Record<string, unknown>; version?: string };
        if (!payload.input || typeof payload.input !== 'object') {
          return problem(res, 422, 'Input validation failed', 'input is required');
        }
        if (!create && !payload.version) return problem(res, 422, 'Invalid version', 'version is required');
        const prompt = typeof payload.input.prompt === 'string' ? payload.input.prompt : '';
        const script = scripts.get(prompt) ?? { outcome: 'video' };
        if (script.createRateLimitOnceSec !== undefined && !createLimited.has(prompt)) {
          createLimited.add(prompt);
          return problem(res, 429, 'Request was throttled.', 'Request was throttled.', {
            'retry-after': String(script.createRateLimitOnceSec),
          });
        }
        const id = `pred${++counter}abc`;
        const prediction: Prediction = {
          id,
          model: create ? `${create[1]}/${create[2]}` : 'pinned/model',
          version: create ? 'hidden' : (payload.version ?? ''),
          input: payload.input,
          script,
          polls: 0,
          pollRateLimited: false,
          canceled: false,
        };
        predictions.set(id, prediction);
        return json(res, 201, view(prediction));
      }
      const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
      const prediction = one ? predictions.get(one[1] ?? '') : undefined;
      if (!one || !prediction)
        return problem(res, 404, 'Not found', 'The requested resource could not be found.');
      if (one[2]) {
        if (req.method !== 'POST') return problem(res, 405, 'Method not allowed', 'Use POST');
        const finished = ['succeeded', 'failed', 'canceled'].includes(view(prediction).status);
        if (!finished) prediction.canceled = true;
        return json(res, 200, view(prediction));
      }
      if (prediction.script.pollRateLimitOnceSec !== undefined && !prediction.pollRateLimited) {
        prediction.pollRateLimited = true;
        return problem(res, 429, 'Request was throttled.', 'Request was throttled.', {
          'retry-after': String(prediction.script.pollRateLimitOnceSec),
        });
      }
      prediction.polls++;
      return json(res, 200, view(prediction));
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    token,
    requests,
    script: (prompt, script) => scripts.set(prompt, script),
    prediction: (id) => predictions.get(id),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
