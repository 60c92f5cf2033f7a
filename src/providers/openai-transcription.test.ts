import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fromVerboseJson,
  languageCode,
  OpenAiTranscriber,
  TranscriptionServiceError,
  type VerboseTranscription,
} from './openai-transcription.ts';

interface Received {
  url: string | undefined;
  authorization: string | undefined;
  fields: Map<string, string[]>;
  fileName: string | undefined;
  fileBytes: Buffer | undefined;
}

/** What the fake server answers to the n-th request (0-based) of a test. */
type Responder = (n: number, res: ServerResponse) => void;

const received: Received[] = [];
let respond: Responder = () => undefined;

/** Parses the multipart/form-data body the way a real server would, with the WHATWG FormData parser. */
async function readForm(req: IncomingMessage): Promise<Omit<Received, 'url' | 'authorization'>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = await new Response(Buffer.concat(chunks), {
    headers: { 'content-type': req.headers['content-type'] ?? '' },
  }).formData();
  const fields = new Map<string, string[]>();
  let fileName: string | undefined;
  let fileBytes: Buffer | undefined;
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') fields.set(key, [...(fields.get(key) ?? []), value]);
    else {
      fileName = value.name;
      fileBytes = Buffer.from(await value.arrayBuffer());
    }
  }
  return { fields, fileName, fileBytes };
}

const server = createServer((req, res) => {
  void readForm(req).then((form) => {
    received.push({ url: req.url, authorization: req.headers.authorization, ...form });
    respond(received.length - 1, res);
  });
});

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A verbose_json answer as OpenAI's whisper-1 gives it. */
const OPENAI_ANSWER = {
  task: 'transcribe',
  language: 'english',
  duration: 2.5,
  text: ' Go forward ten meters.',
  words: [
    { word: 'Go', start: 0.46, end: 0.64 },
    { word: 'forward', start: 0.64, end: 1.16 },
    { word: 'ten', start: 1.16, end: 1.52 },
    { word: 'meters', start: 1.52, end: 2.1 },
  ],
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0,
      end: 2.5,
      text: ' Go forward ten meters.',
      tokens: [50364, 1037, 2128],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 0.8,
      no_speech_prob: 0.01,
    },
  ],
};

let dir = '';
let audioPath = '';
const audioBytes = Buffer.from('RIFF fake wave bytes for the upload');
let baseURL = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openai-transcription-test-'));
  audioPath = join(dir, 'clip.wav');
  await writeFile(audioPath, audioBytes);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

function transcriber(maxRetries = 2): OpenAiTranscriber {
  return new OpenAiTranscriber({ baseURL, apiKey: 'sk-local-test', model: 'whisper-1', maxRetries });
}

describe('OpenAiTranscriber against a local OpenAI-compatible server', () => {
  test('posts the multipart request and returns timed words with confidences', async () => {
    received.length = 0;
    respond = (_, res) => json(res, 200, OPENAI_ANSWER);
    const progress: number[] = [];
    const result = await transcriber().transcribe(audioPath, {
      languageHint: 'en-GB',
      onProgress: (f) => progress.push(f),
    });
    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request?.url, '/v1/audio/transcriptions');
    assert.equal(request?.authorization, 'Bearer sk-local-test');
    assert.deepEqual(request?.fields.get('model'), ['whisper-1']);
    assert.deepEqual(request?.fields.get('response_format'), ['verbose_json']);
    assert.deepEqual(request?.fields.get('timestamp_granularities[]'), ['word']);
    assert.deepEqual(request?.fields.get('language'), ['en']);
    assert.equal(request?.fileName, 'clip.wav');
    assert.deepEqual(request?.fileBytes, audioBytes);
    const confidence = Math.exp(-0.2);
    assert.deepEqual(result, {
      language: 'en',
      durationSec: 2.5,
      text: 'Go forward ten meters.',
      words: [
        { word: 'Go', start: 0.46, end: 0.64, confidence },
        { word: 'forward', start: 0.64, end: 1.16, confidence },
        { word: 'ten', start: 1.16, end: 1.52, confidence },
        { word: 'meters', start: 1.52, end: 2.1, confidence },
      ],
    });
    assert.deepEqual(progress, [0, 1]);
  });

  test('sends no language when there is no hint', async () => {
    received.length = 0;
    respond = (_, res) => json(res, 200, OPENAI_ANSWER);
    await transcriber().transcribe(audioPath);
    assert.equal(received[0]?.fields.has('language'), false);
  });

  test('a 4xx answer is not retried and is reported as not retryable', async () => {
    received.length = 0;
    respond = (_, res) =>
      json(res, 400, { error: { message: 'Invalid file format.', type: 'invalid_request_error' } });
    await assert.rejects(transcriber().transcribe(audioPath), (error: unknown) => {
      assert.ok(error instanceof TranscriptionServiceError);
      assert.equal(error.status, 400);
      assert.equal(error.retryable, false);
      assert.match(error.message, /Invalid file format/);
      return true;
    });
    assert.equal(received.length, 1);
  });

  test('a 5xx answer is retried, and the retry can succeed', async () => {
    received.length = 0;
    respond = (n, res) =>
      n === 0
        ? json(res, 503, { error: { message: 'overloaded' } }, { 'retry-after-ms': '10' })
        : json(res, 200, OPENAI_ANSWER);
    const result = await transcriber().transcribe(audioPath);
    assert.equal(received.length, 2);
    assert.deepEqual(received[1]?.fileBytes, audioBytes);
    assert.equal(result.words.length, 4);
  });

  test('a 5xx answer that persists fails as retryable after the retries', async () => {
    received.length = 0;
    respond = (_, res) => json(res, 500, { error: { message: 'boom' } }, { 'retry-after-ms': '10' });
    await assert.rejects(transcriber(1).transcribe(audioPath), (error: unknown) => {
      assert.ok(error instanceof TranscriptionServiceError);
      assert.equal(error.status, 500);
      assert.equal(error.retryable, true);
      return true;
    });
    assert.equal(received.length, 2);
  });

  test('an unreachable server is a retryable failure', async () => {
    const closed = new OpenAiTranscriber({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'whisper-1',
      maxRetries: 0,
    });
    await assert.rejects(closed.transcribe(audioPath), (error: unknown) => {
      assert.ok(error instanceof TranscriptionServiceError);
      assert.equal(error.status, undefined);
      assert.equal(error.retryable, true);
      return true;
    });
  });
});

describe('fromVerboseJson', () => {
  test('self-hosted shape: per-word probabilities, leading spaces, ISO language', () => {
    const body: VerboseTranscription = {
      text: 'Hola mundo',
      language: 'es',
      duration: 1.2,
      words: [
        { word: ' Hola', start: 0, end: 0.5, probability: 0.93 },
        { word: ' mundo', start: 0.5, end: 1.1, probability: 1.2 },
        { word: ' ', start: 1.1, end: 1.2, probability: 0.5 },
      ],
    };
    assert.deepEqual(fromVerboseJson(body), {
      language: 'es',
      durationSec: 1.2,
      text: 'Hola mundo',
      words: [
        { word: 'Hola', start: 0, end: 0.5, confidence: 0.93 },
        { word: 'mundo', start: 0.5, end: 1.1, confidence: 1 },
      ],
    });
  });

  test('no words and no segments', () => {
    assert.deepEqual(fromVerboseJson({ text: '', language: 'english', duration: 3 }), {
      language: 'en',
      durationSec: 3,
      text: '',
      words: [],
    });
  });

  const languages: [string, string][] = [
    ['english', 'en'],
    ['German', 'de'],
    ['haitian creole', 'ht'],
    ['en', 'en'],
    ['pt-BR', 'pt'],
  ];
  for (const [reported, code] of languages)
    test(`language ${reported}`, () => assert.equal(languageCode(reported), code));
});
