import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SpeechRecognizer, TranscribeOptions } from '../speech/recognizer.ts';
import { Narrator } from './narrator.ts';
import { recordedSpeechTimers } from './recorded-speech-timers.ts';
import { timeRecordedSpeech } from './time-recorded-speech.ts';

// A speech service's audio carries no word timings: the captions of such narration come from forced alignment
// or from the recognizer, and an estimate only where neither knows the language.

const run = promisify(execFile);
const dir = await mkdtemp(join(tmpdir(), 'recorded-speech-timers-'));
const TEXT = 'Bonjour tout le monde. Merci beaucoup.';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** An OpenAI-compatible speech server that speaks French with espeak-ng and, like the real one, no timings. */
const speechServer = createServer((req, res) => {
  void (async () => {
    const { input } = JSON.parse(await readBody(req)) as { input: string };
    const wav = join(dir, 'served.wav');
    await run('espeak-ng', ['-v', 'roa/fr', '-w', wav, input]);
    const audio = await readFile(wav);
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': audio.length }).end(audio);
  })();
});
await new Promise<void>((resolve) => speechServer.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(speechServer.address() as AddressInfo).port}/v1`;

after(async () => {
  speechServer.close();
  await rm(dir, { recursive: true, force: true });
});

/** A recognizer for French that hears every word but "tout", at fixed times inside the ~1.8 s recording. */
function frenchRecognizer(calls: TranscribeOptions[]): SpeechRecognizer {
  return {
    id: 'test-recognizer',
    languages: () => ['fr'],
    async transcribe(_audioPath, opts = {}) {
      calls.push(opts);
      const words = [
        { word: 'bonjour', start: 0.1, end: 0.4 },
        { word: 'le', start: 0.55, end: 0.65 },
        { word: 'monde', start: 0.65, end: 0.9 },
        { word: 'merci', start: 1.1, end: 1.35 },
        { word: 'beaucoup', start: 1.35, end: 1.7 },
      ];
      return { language: 'fr', durationSec: 1.8, words, text: words.map((w) => w.word).join(' ') };
    },
  };
}

void test('a speech-service voice without timings gets the recognizer’s timings, not an estimate', async () => {
  const calls: TranscribeOptions[] = [];
  const narrator = new Narrator({ baseUrl, apiKey: 'sk-test', model: 'tts-test' }, frenchRecognizer(calls));
  const speech = await narrator.synthesize({
    text: TEXT,
    voiceId: 'speech:alloy',
    language: 'fr',
    speed: 1,
    outPath: join(dir, 'narration.wav'),
  });
  assert.equal(speech.timingSource, 'recognized');
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.languageHint, 'fr');
  assert.deepEqual(
    speech.words.map((w) => w.word),
    ['Bonjour', 'tout', 'le', 'monde.', 'Merci', 'beaucoup.'],
  );
  const heard = speech.words.filter((w) => w.word !== 'tout').map((w) => [w.start, w.end]);
  assert.deepEqual(heard, [
    [0.1, 0.4],
    [0.55, 0.65],
    [0.65, 0.9],
    [1.1, 1.35],
    [1.35, 1.7],
  ]);
  // The word the recognizer missed is placed between its neighbours.
  assert.equal(speech.interpolatedWords, 1);
  const tout = speech.words[1]!;
  assert.ok(tout.start >= 0.4 && tout.end <= 0.55, JSON.stringify(tout));
});

void test('the estimate remains only for languages neither alignment nor the recognizer handles', async () => {
  const timers = recordedSpeechTimers(frenchRecognizer([]));
  const usable = (language: string) => timers.filter((t) => t.supports(language)).map((t) => t.source);
  assert.deepEqual(usable('en'), ['aligned']);
  assert.deepEqual(usable('fr'), ['recognized']);
  assert.deepEqual(usable('de'), ['sentence-estimated']);

  const wav = join(dir, 'german.wav');
  await run('espeak-ng', ['-v', 'gmw/de', '-w', wav, 'Guten Morgen.']);
  const timed = await timeRecordedSpeech({ audioPath: wav, text: 'Guten Morgen.', language: 'de', timers });
  assert.equal(timed.source, 'sentence-estimated');
});
