import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../platform/config.ts';
import { OpenAiTranscriber } from '../../providers/openai-transcription.ts';
import { createRecognizer, isLocalRecognizer } from './create-recognizer.ts';
import { PocketsphinxRecognizer } from './pocketsphinx-recognizer.ts';

interface Received {
  url: string | undefined;
  authorization: string | undefined;
  model: string | undefined;
}

const received: Received[] = [];

async function modelField(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = await new Response(Buffer.concat(chunks), {
    headers: { 'content-type': req.headers['content-type'] ?? '' },
  }).formData();
  const model = form.get('model');
  return typeof model === 'string' ? model : undefined;
}

/** An OpenAI-compatible transcription endpoint answering one word. */
const server = createServer((req, res) => {
  void modelField(req).then((model) => {
    received.push({ url: req.url, authorization: req.headers.authorization, model });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        text: 'Bonjour',
        language: 'french',
        duration: 1,
        words: [{ word: 'Bonjour', start: 0.1, end: 0.6 }],
      }),
    );
  });
});

let dir = '';
let audioPath = '';
let baseUrl = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'create-recognizer-test-'));
  audioPath = join(dir, 'clip.wav');
  await writeFile(audioPath, 'RIFF bytes the fake server never decodes');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createRecognizer', () => {
  test('without TRANSCRIBE_BASE_URL speech is recognized locally, in English', () => {
    const recognizer = createRecognizer(loadConfig({}));
    assert.ok(recognizer instanceof PocketsphinxRecognizer);
    assert.equal(isLocalRecognizer(recognizer), true);
    assert.deepEqual(recognizer.languages(), ['en']);
  });

  test('TRANSCRIBE_BASE_URL switches to the service, with its key and model', async () => {
    received.length = 0;
    const recognizer = createRecognizer(
      loadConfig({
        TRANSCRIBE_BASE_URL: baseUrl,
        TRANSCRIBE_API_KEY: 'sk-test',
        TRANSCRIBE_MODEL: 'large-v3',
      }),
    );
    assert.ok(recognizer instanceof OpenAiTranscriber);
    assert.equal(isLocalRecognizer(recognizer), false);
    assert.equal(recognizer.id, 'openai-transcription:large-v3');
    assert.ok(recognizer.languages().includes('fr'));
    const transcript = await recognizer.transcribe(audioPath);
    assert.deepEqual(received, [
      { url: '/v1/audio/transcriptions', authorization: 'Bearer sk-test', model: 'large-v3' },
    ]);
    assert.equal(transcript.language, 'fr');
    assert.deepEqual(
      transcript.words.map((w) => w.word),
      ['Bonjour'],
    );
  });

  test('the base URL alone is enough: no key, and the model defaults to whisper-1', async () => {
    received.length = 0;
    const config = loadConfig({ TRANSCRIBE_BASE_URL: baseUrl });
    assert.deepEqual(config.transcription, { baseUrl, apiKey: undefined, model: 'whisper-1' });
    await createRecognizer(config).transcribe(audioPath);
    assert.equal(received[0]?.model, 'whisper-1');
  });
});
