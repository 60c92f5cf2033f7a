import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VOICE_PASSAGES } from '../bench/speech/voice-passages.ts';
import { PocketsphinxRecognizer } from '../src/media/speech/pocketsphinx-recognizer.ts';
import { normalizeWords, wordErrorRate, wordErrors } from '../src/media/speech/word-error-rate.ts';
import type { WordTiming } from '../src/media/types.ts';
import { Narrator } from '../src/media/voice/narrator.ts';
import { productModes } from '../src/modes/index.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// The voice catalogue in /capabilities, the choice between local voices and a configured speech service, and
// the local narrator itself: natural English voices clear enough for a recognizer, espeak-ng for the rest.

let local: TestService;
let withService: TestService;
let work: string;
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'voices-test-'));
  local = await startTestService({ modes: productModes, worker: false });
  withService = await startTestService({
    modes: productModes,
    worker: false,
    env: { SPEECH_BASE_URL: 'http://127.0.0.1:9/v1', SPEECH_API_KEY: 'sk-test', SPEECH_MODEL: 'tts-1' },
  });
});
after(async () => {
  await local.stop();
  await withService.stop();
  await rm(work, { recursive: true, force: true });
});

const dryRun = (service: TestService, body: Record<string, unknown>) =>
  service.call('POST', '/api/v1/generate-and-post', { body: { topic: 'voices', dry_run: true, ...body } });

interface ListedVoice {
  id: string;
  engine: string;
  gender: string;
  locale: string;
  name: string;
  note: string;
}

void test('/capabilities lists the local voices per language with their defaults, and the service voices only when configured', async () => {
  const caps = (await local.call('GET', '/api/v1/capabilities')).body.data;
  const english: ListedVoice[] = caps.voices.languages.en;
  const byId = (id: string) => english.find((v) => v.id === id);
  assert.deepEqual(
    ['flite:rms', 'festival:slt-hts', 'flite:slt', 'flite:kal16', 'flite:awb'].map((id) => [
      id,
      byId(id)?.engine,
      byId(id)?.gender,
    ]),
    [
      ['flite:rms', 'flite', 'male'],
      ['festival:slt-hts', 'festival', 'female'],
      ['flite:slt', 'flite', 'female'],
      ['flite:kal16', 'flite', 'male'],
      ['flite:awb', 'flite', 'male'],
    ],
  );
  assert.ok(english.every((v) => v.note.length > 0 && v.name.length > 0));
  assert.equal(byId('espeak:en-us:female-1')?.gender, 'female');
  assert.equal(english[0]!.id, 'flite:rms');
  assert.deepEqual(caps.voices.defaults.en, { female: 'festival:slt-hts', male: 'flite:rms' });
  assert.match(caps.voices.defaults.de.female, /^espeak:de:female-/);
  assert.ok(caps.voices.languages.de.every((v: ListedVoice) => v.engine === 'espeak'));
  assert.deepEqual(caps.voices.service_voices, []);
  const configured = (await withService.call('GET', '/api/v1/capabilities')).body.data;
  assert.ok(configured.voices.service_voices.includes('speech:alloy'));
});

void test('voice ids are checked against the engines that exist here', async () => {
  assert.equal((await dryRun(local, { voice_id: 'espeak:en-us:male-2' })).status, 200);
  assert.equal((await dryRun(local, { voice_id: 'flite:rms' })).status, 200);
  assert.equal((await dryRun(local, { voice_id: 'festival:slt-hts', voice_gender: 'male' })).status, 200);
  assert.equal(
    (await dryRun(local, { voice_gender: 'female', language: 'de', script: 'Guten Morgen, liebe Leute.' }))
      .status,
    200,
  );
  const german = await dryRun(local, {
    voice_id: 'flite:rms',
    language: 'de',
    script: 'Guten Morgen, liebe Leute.',
  });
  assert.equal(german.status, 400, german.text);
  const refused = await dryRun(local, { voice_id: 'speech:alloy' });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error.details.fields[0].message, /SPEECH_BASE_URL/);
  assert.equal((await dryRun(withService, { voice_id: 'speech:alloy' })).status, 200);
  const unknown = await dryRun(withService, { voice_id: 'speech:robot' });
  assert.equal(unknown.status, 400);
  assert.ok(unknown.body.error.details.fields[0].valid_values.includes('speech:alloy'));
});

// The narrator every mode narrates through (stock, presenters, AI video, captions).
const narrator = new Narrator();
// bench/speech/local-voices.ts measures all five passages; docs/voices.md has the numbers.
const PASSAGE = VOICE_PASSAGES[0]!;
const INTELLIGIBILITY_FLOOR = 0.15;

/** Words in script order, each inside the audio and starting where the previous one ended or later. */
function assertTimings(words: WordTiming[], script: string, durationSec: number, label: string) {
  assert.deepEqual(
    words.map((w) => w.word),
    script.split(' '),
    label,
  );
  words.forEach((w, i) => {
    assert.ok(w.start >= 0 && w.start <= w.end && w.end <= durationSec + 1e-9, `${label}: ${w.word} inside`);
    if (i > 0) assert.ok(w.start >= words[i - 1]!.end - 1e-9, `${label}: ${w.word} after its predecessor`);
  });
  // The words cover the speech: only the voice's own lead-in and tail silence lie outside them.
  assert.ok(words[0]!.start < 0.4, `${label}: first word at ${words[0]!.start}`);
  assert.ok(words.at(-1)!.end > durationSec - 0.4, `${label}: last word ends ${words.at(-1)!.end}`);
}

for (const gender of ['male', 'female'] as const) {
  void test(`the default ${gender} English voice is natural: the local recognizer gets the passage right, words are aligned, speed works`, async () => {
    const speech = await narrator.synthesize({
      text: PASSAGE,
      gender,
      language: 'en',
      speed: 1,
      outPath: join(work, `${gender}.wav`),
    });
    assert.equal(speech.voiceId, gender === 'male' ? 'flite:rms' : 'festival:slt-hts');

    const heard = await new PocketsphinxRecognizer().transcribe(speech.audioPath, { languageHint: 'en' });
    const wer = wordErrorRate(wordErrors(normalizeWords(PASSAGE), normalizeWords(heard.text)));
    assert.ok(
      wer <= INTELLIGIBILITY_FLOOR,
      `${speech.voiceId}: WER ${(wer * 100).toFixed(1)} % | ${heard.text}`,
    );

    assert.equal(speech.timingSource, 'aligned');
    assert.ok(speech.interpolatedWords <= 2, `${speech.interpolatedWords} words interpolated`);
    assertTimings(speech.words, PASSAGE, speech.durationSec, speech.voiceId);

    const fast = await narrator.synthesize({
      text: PASSAGE,
      gender,
      language: 'en',
      speed: 1.3,
      outPath: join(work, `${gender}-fast.wav`),
    });
    assert.ok(
      fast.durationSec < speech.durationSec * 0.85,
      `speed 1.3: ${fast.durationSec} s against ${speech.durationSec} s`,
    );
    assertTimings(fast.words, PASSAGE, fast.durationSec, `${speech.voiceId} at 1.3`);
  });
}

void test('espeak voices still narrate by id, and other languages keep espeak-ng', async () => {
  const text = 'Honey never spoils. Bees work hard all summer long.';
  const espeak = await narrator.synthesize({
    text,
    voiceId: 'espeak:en-us:male-2',
    language: 'en',
    speed: 1,
    outPath: join(work, 'espeak.wav'),
  });
  assert.equal(espeak.voiceId, 'espeak:en-us:male-2');
  assert.equal(espeak.timingSource, 'aligned');
  assertTimings(espeak.words, text, espeak.durationSec, espeak.voiceId);

  const german = 'Honig verdirbt niemals. Bienen arbeiten den ganzen Sommer.';
  const de = await narrator.synthesize({
    text: german,
    gender: 'female',
    language: 'de',
    speed: 1,
    outPath: join(work, 'de.wav'),
  });
  assert.match(de.voiceId, /^espeak:de:female-/);
  assert.equal(de.timingSource, 'sentence-estimated');
  assertTimings(de.words, german, de.durationSec, de.voiceId);
});
