import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { WordTiming } from '../types.ts';
import { applyTempo } from './apply-tempo.ts';
import { fitToDuration } from './fit-to-duration.ts';
import { synthesize } from './synthesize.ts';
import { resolveVoice, VoiceUnavailableError } from './voice-catalogue.ts';

const run = promisify(execFile);
const dir = await mkdtemp(join(tmpdir(), 'voice-test-'));
test.after(() => rm(dir, { recursive: true, force: true }));

async function probeDuration(path: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    path,
  ]);
  return Number(stdout);
}

/** Silences found by ffmpeg's own silencedetect, independently of the code under test. */
async function silences(path: string): Promise<{ start: number; end: number }[]> {
  const { stderr } = await run('ffmpeg', [
    '-i',
    path,
    '-af',
    'silencedetect=noise=-45dB:d=0.08',
    '-f',
    'null',
    '-',
  ]);
  const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.flatMap((start, i) => (ends[i] === undefined ? [] : [{ start, end: ends[i] }]));
}

function assertWellFormed(words: WordTiming[], expected: string[], durationSec: number) {
  assert.deepEqual(
    words.map((w) => w.word),
    expected,
  );
  words.forEach((w, i) => {
    assert.ok(w.start >= 0 && w.start <= w.end && w.end <= durationSec + 1e-9, `${w.word} inside the audio`);
    if (i > 0)
      assert.ok(w.start >= words[i - 1]!.end - 1e-9, `${w.word} starts after ${words[i - 1]!.word} ends`);
  });
}

/** The word after `breakWord` must start where the pause after `breakWord` ends, within 150 ms. */
function assertWordAfterPause(
  words: WordTiming[],
  breakWord: string,
  pauses: { start: number; end: number }[],
) {
  const i = words.findIndex((w) => w.word === breakWord);
  const next = words[i + 1]!;
  const pause = pauses.find((p) => Math.abs(p.end - next.start) < 0.3);
  assert.ok(
    pause,
    `a pause before "${next.word}" (starts ${next.start.toFixed(3)}; pauses ${JSON.stringify(pauses)})`,
  );
  assert.ok(
    Math.abs(next.start - pause.end) <= 0.15,
    `"${next.word}" at ${next.start} vs pause end ${pause.end}`,
  );
  assert.ok(
    words[i]!.end <= pause.start + 0.15,
    `"${breakWord}" ends ${words[i]!.end} by the pause at ${pause.start}`,
  );
}

void test('English narration, natural and espeak voices: exact WAV length, every word aligned in order, words after pauses where they start', async () => {
  const text = 'Honey never spoils, even after many years. Bees work hard all summer long.';
  const voices = [
    resolveVoice({ language: 'en', gender: 'female' }),
    resolveVoice({ language: 'en', gender: 'male' }),
    resolveVoice({ language: 'en', voiceId: 'espeak:en-us:female-1' }),
  ];
  assert.deepEqual(
    voices.map((v) => v.id),
    ['festival:slt-hts', 'flite:rms', 'espeak:en-us:female-1'],
  );
  for (const voice of voices) {
    const outPath = join(dir, `en-${voice.engine}.wav`);
    const speech = await synthesize({ text, voice, outPath });
    assert.equal(speech.voiceId, voice.id);
    assert.equal(speech.timingSource, 'aligned', voice.id);
    assert.ok(speech.interpolatedWords <= 1, `${voice.id} interpolated ${speech.interpolatedWords}`);
    assert.ok(Math.abs((await probeDuration(outPath)) - speech.durationSec) < 0.002);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=sample_rate,channels',
      '-of',
      'csv=p=0',
      outPath,
    ]);
    assert.equal(stdout.trim(), '48000,1');
    assertWellFormed(speech.words, text.split(' '), speech.durationSec);

    const pauses = await silences(outPath);
    assertWordAfterPause(speech.words, 'spoils,', pauses);
    assertWordAfterPause(speech.words, 'years.', pauses);
  }
});

void test('Spanish and German narration get sentence-estimated timings for every word', async () => {
  const cases: [string, string][] = [
    ['es', 'La miel nunca se echa a perder. Los pulpos tienen tres corazones.'],
    ['de', 'Honig verdirbt niemals. Kraken haben drei Herzen und blaues Blut.'],
  ];
  for (const [language, text] of cases) {
    const outPath = join(dir, `${language}.wav`);
    const speech = await synthesize({ text, voice: resolveVoice({ language }), outPath });
    assert.equal(speech.timingSource, 'sentence-estimated', language);
    assert.ok(Math.abs((await probeDuration(outPath)) - speech.durationSec) < 0.002);
    assertWellFormed(speech.words, text.split(' '), speech.durationSec);
    // Sentences are synthesized apart, so the second one starts exactly where its audio does.
    assertWordAfterPause(
      speech.words,
      text.split(' ').find((w) => w.endsWith('.'))!,
      await silences(outPath),
    );
  }
});

void test('Chinese is split into words and timed', async () => {
  const speech = await synthesize({
    text: '我们今天去公园。天气很好！',
    voice: resolveVoice({ language: 'zh' }),
    outPath: join(dir, 'zh.wav'),
  });
  assertWellFormed(speech.words, ['我们', '今天', '去', '公园。', '天气', '很好！'], speech.durationSec);
});

void test('speed 1.3 is shorter than 0.7', async () => {
  const voice = resolveVoice({ language: 'en' });
  const text = 'Lightning strikes the earth about one hundred times every second.';
  const fast = await synthesize({ text, voice, speed: 1.3, outPath: join(dir, 'fast.wav') });
  const slow = await synthesize({ text, voice, speed: 0.7, outPath: join(dir, 'slow.wav') });
  assert.ok(fast.durationSec < slow.durationSec * 0.7, `${fast.durationSec} vs ${slow.durationSec}`);
  await assert.rejects(synthesize({ text, voice, speed: 2, outPath: join(dir, 'x.wav') }), RangeError);
});

void test('a narration that overruns is sped up to fit, with its words moved along', async () => {
  const speech = await synthesize({
    text: 'Wombats make cube shaped droppings.',
    voice: resolveVoice({ language: 'en' }),
    outPath: join(dir, 'wombat.wav'),
  });
  const fit = fitToDuration({
    targetSec: speech.durationSec / 1.2,
    durationSec: speech.durationSec,
    words: speech.words,
  });
  const narration = await applyTempo(speech, fit, join(dir, 'wombat-fast.wav'));
  assert.equal(narration.tempo, fit.tempo);
  assert.ok(Math.abs((await probeDuration(narration.audioPath)) - speech.durationSec / fit.tempo) < 0.05);
  assert.equal(narration.words.at(-1)!.end, speech.words.at(-1)!.end / fit.tempo);
});

void test('voice errors: unknown id, language without a voice; empty text and abort are refused', async () => {
  assert.throws(
    () => resolveVoice({ language: 'en', voiceId: 'espeak:en-us:robot-1' }),
    VoiceUnavailableError,
  );
  assert.throws(() => resolveVoice({ language: 'tlh' }), VoiceUnavailableError);
  const voice = resolveVoice({ language: 'en' });
  await assert.rejects(synthesize({ text: ' … ', voice, outPath: join(dir, 'empty.wav') }), /no words/);
  await assert.rejects(
    synthesize({
      text: 'Hello there.',
      voice,
      outPath: join(dir, 'aborted.wav'),
      signal: AbortSignal.abort(),
    }),
    { name: 'AbortError' },
  );
});
