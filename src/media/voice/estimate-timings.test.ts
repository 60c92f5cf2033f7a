import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateWordTimings, matchBoundariesToPauses } from './estimate-timings.ts';
import type { Interval } from './speech-activity.ts';

const round = (list: Interval[]) =>
  list.map((i) => ({ start: Math.round(i.start * 1e6) / 1e6, end: Math.round(i.end * 1e6) / 1e6 }));

void test('without pauses, words share the speech by weight, the last one drawn out', () => {
  // Weights 1, 3 and 0.5 + 1.5 of phrase-final lengthening: 1/6, 3/6, 2/6 of 1.2 s after the 0.3 s onset.
  const timings = estimateWordTimings({
    speech: { start: 0.3, end: 1.5 },
    pauses: [],
    words: [{ weight: 1 }, { weight: 3 }, { weight: 0.5, breakAfter: 'sentence' }],
  });
  assert.deepEqual(round(timings), [
    { start: 0.3, end: 0.5 },
    { start: 0.5, end: 1.1 },
    { start: 1.1, end: 1.5 },
  ]);
});

void test('a pause at a comma becomes an exact word boundary', () => {
  const timings = estimateWordTimings({
    speech: { start: 0, end: 2 },
    pauses: [{ start: 0.9, end: 1.1 }],
    words: [{ weight: 1.5 }, { weight: 1.5, breakAfter: 'clause' }, { weight: 2 }, { weight: 0.5 }],
  });
  // Before the pause 1.5 : (1.5 + 1.5 lengthening); after it 2 : (0.5 + 1.5).
  assert.deepEqual(round(timings), [
    { start: 0, end: 0.3 },
    { start: 0.3, end: 0.9 },
    { start: 1.1, end: 1.55 },
    { start: 1.55, end: 2 },
  ]);
});

void test('an unmatched pause is skipped over: the word that spans it contains it', () => {
  // A short silence (a stop closure) far from any word boundary; 1 s of speech split 2.5 : (1 + 1.5).
  const timings = estimateWordTimings({
    speech: { start: 0, end: 1.08 },
    pauses: [{ start: 0.2, end: 0.28 }],
    words: [{ weight: 2.5 }, { weight: 1 }],
  });
  assert.deepEqual(round(timings), [
    { start: 0, end: 0.58 },
    { start: 0.58, end: 1.08 },
  ]);
});

void test('matchBoundariesToPauses pairs boundaries with nearby pauses in order', () => {
  const cases: [number[], ('sentence' | 'clause' | 'none')[], number[], number[], number[]][] = [
    [[1], ['clause'], [1.05], [0.2], [0]],
    [[1], ['none'], [1.6], [0.08], [-1]],
    [[1], ['none'], [1.02], [0.3], [0]],
    [[1, 2], ['clause', 'sentence'], [2.1], [0.3], [-1, 0]],
    [[0.5, 1], ['none', 'none'], [0.95], [0.3], [-1, 0]],
    [
      [0.5, 1, 1.5],
      ['clause', 'none', 'clause'],
      [0.55, 1.45],
      [0.2, 0.2],
      [0, -1, 1],
    ],
    [[], [], [0.5], [0.3], []],
  ];
  for (const [expected, kinds, at, length, matched] of cases) {
    assert.deepEqual(
      matchBoundariesToPauses(expected, kinds, at, length),
      matched,
      JSON.stringify([expected, at]),
    );
  }
});

void test('no words, no timings', () => {
  assert.deepEqual(estimateWordTimings({ speech: { start: 0, end: 1 }, pauses: [], words: [] }), []);
});
