import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { alignScript } from './align.ts';
import { bicClusters, deltaBic, diarize, logDetCovariance, speechSegments, statsOf } from './diarize.ts';

describe('speechSegments', () => {
  const w = (start: number, end: number): WordTiming => ({ word: 'x', start, end });
  test('splits at pauses and at the length limit', () => {
    const words = [w(0, 0.5), w(0.6, 1), w(1.5, 2), w(2, 3), w(3, 3.6), w(3.6, 4.2)];
    assert.deepEqual(speechSegments(words, 0.3, 2), [
      { start: 0, end: 1, words: [0, 1] },
      { start: 1.5, end: 3, words: [2, 3] },
      { start: 3, end: 4.2, words: [4, 5] },
    ]);
  });
  test('no words', () => assert.deepEqual(speechSegments([]), []));
});

/** Deterministic pseudo-random points around `centre` with spread `scale` (a linear congruential generator). */
function cloud(centre: number[], scale: number, count: number, seed: number): Float64Array[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
  return Array.from({ length: count }, () => Float64Array.from(centre, (c) => c + scale * next()));
}

describe('BIC clustering', () => {
  test('log-determinant of a known covariance', () => {
    // Points (±1, ±2) in equal numbers: variances 1 and 4, no covariance, so log|Σ| = log 4 (plus the ridge).
    const points = [
      [1, 2],
      [1, -2],
      [-1, 2],
      [-1, -2],
    ].map((p) => Float64Array.from(p));
    assert.ok(Math.abs(logDetCovariance(statsOf(points, 2)) - Math.log(1.001 * 4.001)) < 1e-9);
  });

  test('ΔBIC is negative for two samples of one distribution and positive for two distributions', () => {
    const a = statsOf(cloud([0, 0, 0], 1, 200, 1), 3);
    const b = statsOf(cloud([0, 0, 0], 1, 200, 2), 3);
    const c = statsOf(cloud([3, -2, 1], 1, 200, 3), 3);
    assert.ok(deltaBic(a, b, 1) < 0);
    assert.ok(deltaBic(a, c, 1) > 0);
  });

  test('segments from two sources end up in two clusters', () => {
    const segments = [
      cloud([0, 0, 0], 1, 150, 11),
      cloud([4, 1, -2], 1, 150, 12),
      cloud([0, 0, 0], 1, 150, 13),
      cloud([4, 1, -2], 1, 150, 14),
      cloud([0, 0, 0], 1, 150, 15),
    ].map((frames) => statsOf(frames, 3));
    assert.deepEqual(bicClusters(segments, 1), [0, 1, 0, 1, 0]);
  });
});

describe('diarize (real audio)', () => {
  const sentences: [string, string][] = [
    ['en-us', 'The museum opens at nine and closes late on Fridays.'],
    ['en-us+f3', 'Please send the final report to everyone before lunch.'],
    ['en-us', 'Heavy rain is expected across the northern valleys tonight.'],
    ['en-us+f3', 'She bought fresh bread, cheese and apples at the market.'],
  ];
  let dir = '';
  let dialogue = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'diarize-test-'));
    const parts = await Promise.all(
      sentences.map(async ([voice, text], i) => {
        const path = join(dir, `part-${i}.wav`);
        await runProcess('espeak-ng', ['-v', voice, '-w', path, text]);
        return path;
      }),
    );
    dialogue = join(dir, 'dialogue.wav');
    await runProcess('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...parts.flatMap((p) => ['-i', p]),
      '-filter_complex',
      'concat=n=4:v=0:a=1,aresample=16000',
      '-ac',
      '1',
      dialogue,
    ]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a male and a female voice taking turns are two speakers', async () => {
    const words = await alignScript(dialogue, sentences.map(([, text]) => text).join(' '));
    const result = await diarize(dialogue, words);
    assert.equal(result.speakers.length, 2);
    let index = 0;
    let correct = 0;
    for (const [voice, text] of sentences) {
      const expected = voice === 'en-us' ? 'S1' : 'S2';
      const count = text.split(' ').length;
      for (const word of result.words.slice(index, index + count)) if (word.speaker === expected) correct++;
      index += count;
    }
    assert.ok(correct / index >= 0.9, `${correct} of ${index} words on the right speaker`);
    const total = result.speakers.reduce((sum, s) => sum + s.activeMinutes, 0);
    const spoken = words.reduce((sum, w) => sum + w.end - w.start, 0) / 60;
    assert.ok(Math.abs(total - spoken) < 0.002);
  });

  test('one reader is one speaker', async () => {
    const book = '/usr/share/pocketsphinx/test/data/librivox';
    const reading = join(dir, 'reading.wav');
    await runProcess('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      `${book}/sense_and_sensibility_01_austen_64kb-0870.wav`,
      '-i',
      `${book}/sense_and_sensibility_01_austen_64kb-0920.wav`,
      '-filter_complex',
      'concat=n=2:v=0:a=1',
      reading,
    ]);
    const text =
      'and mister john dashwood had then leisure to consider how much there might be prudently in his power to ' +
      'do for them had he married a more a amiable woman he might have been made still more respectable than he was';
    const result = await diarize(reading, await alignScript(reading, text));
    assert.deepEqual(
      result.speakers.map((s) => s.id),
      ['S1'],
    );
    assert.ok(result.words.every((w) => w.speaker === 'S1'));
  });

  test('no words, no speakers', async () => {
    assert.deepEqual(await diarize(dialogue, []), { words: [], speakers: [] });
  });
});
