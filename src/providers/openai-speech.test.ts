import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenAiSpeechClient, SpeechServiceError } from './openai-speech.ts';

const run = promisify(execFile);
const dir = await mkdtemp(join(tmpdir(), 'openai-speech-test-'));

interface Seen {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Speaks the request's input with espeak-ng and returns it as a 24 kHz WAV, like the real service. */
async function speak(input: string, voice: string, n: number): Promise<Buffer> {
  const raw = join(dir, `served-${n}.espeak.wav`);
  const wav = join(dir, `served-${n}.wav`);
  const espeakVoice = voice === 'nova' ? 'roa/es+f3' : 'gmw/en-US+f3';
  await run('espeak-ng', ['-v', espeakVoice, '-w', raw, input]);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '24000', wav]);
  return readFile(wav);
}

// A local stand-in for an OpenAI-compatible speech server.
const server = createServer((req, res) => {
  void (async () => {
    const text = await readBody(req);
    const body = JSON.parse(text) as { input: string; voice: string };
    seen.push({
      method: req.method,
      url: req.url,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    } else if (req.headers.authorization !== 'Bearer sk-local-test') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
    } else {
      const audio = await speak(body.input, body.voice, seen.length);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': audio.length }).end(audio);
    }
  })();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

test.after(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const client = new OpenAiSpeechClient({
  baseURL,
  apiKey: 'sk-local-test',
  model: 'tts-local',
  maxRetries: 0,
});

void test('English: posts the speech request, writes 48 kHz WAV and aligns every word', async () => {
  const text = 'Octopuses have three hearts, and they taste with their arms.';
  const outPath = join(dir, 'en.wav');
  const speech = await client.synthesize({ text, voice: 'alloy', language: 'en', speed: 1.1, outPath });

  assert.deepEqual(seen.at(-1), {
    method: 'POST',
    url: '/v1/audio/speech',
    authorization: 'Bearer sk-local-test',
    contentType: 'application/json',
    body: { model: 'tts-local', voice: 'alloy', input: text, response_format: 'wav', speed: 1.1 },
  });
  const { stdout } = await run('ffprobe', [
    ...[
      '-v',
      'error',
      '-show_entries',
      'stream=sample_rate,channels:format=duration',
      '-of',
      'json',
      outPath,
    ],
  ]);
  const probe = JSON.parse(stdout) as {
    streams: { sample_rate: string; channels: number }[];
    format: { duration: string };
  };
  assert.deepEqual(probe.streams, [{ sample_rate: '48000', channels: 1 }]);
  assert.ok(Math.abs(Number(probe.format.duration) - speech.durationSec) < 0.002);
  assert.equal(speech.voiceId, 'tts-local:alloy');
  assert.equal(speech.timingSource, 'aligned');
  assert.ok(speech.interpolatedWords <= 1);
  assert.deepEqual(
    speech.words.map((w) => w.word),
    text.split(' '),
  );
  for (const [i, w] of speech.words.entries()) {
    assert.ok(w.start <= w.end && w.end <= speech.durationSec);
    if (i > 0) assert.ok(w.start >= speech.words[i - 1]!.end);
  }
});

void test('Spanish audio gets sentence-estimated timings', async () => {
  const text = 'Los pulpos tienen tres corazones. Y sangre azul.';
  const speech = await client.synthesize({
    text,
    voice: 'nova',
    language: 'es',
    outPath: join(dir, 'es.wav'),
  });
  assert.equal(speech.timingSource, 'sentence-estimated');
  assert.deepEqual(
    speech.words.map((w) => w.word),
    text.split(' '),
  );
  assert.ok(speech.words.at(-1)!.end <= speech.durationSec);
});

void test('a rejected key surfaces as SpeechServiceError with the HTTP status', async () => {
  const wrong = new OpenAiSpeechClient({ baseURL, apiKey: 'sk-wrong', model: 'tts-local', maxRetries: 0 });
  await assert.rejects(
    wrong.synthesize({ text: 'Hello.', voice: 'alloy', language: 'en', outPath: join(dir, 'never.wav') }),
    (error: unknown) =>
      error instanceof SpeechServiceError && error.status === 401 && /Incorrect API key/.test(error.message),
  );
});

void test('a speed outside 0.7–1.3 is refused before any request', async () => {
  const before = seen.length;
  await assert.rejects(
    client.synthesize({
      text: 'Hello.',
      voice: 'alloy',
      language: 'en',
      speed: 2,
      outPath: join(dir, 'x.wav'),
    }),
    RangeError,
  );
  assert.equal(seen.length, before);
});
