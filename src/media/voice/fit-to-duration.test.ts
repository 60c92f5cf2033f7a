import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitToDuration, MAX_TEMPO } from './fit-to-duration.ts';

const words = [
  { word: 'One', start: 0, end: 0.6 },
  { word: 'two.', start: 0.6, end: 1.2 },
];

void test('tempo is 1 when the narration fits, up to 1.35 when it overruns, and flags what cannot fit', () => {
  const cases: [number, number, { tempo: number; requiredTempo: number; fits: boolean }][] = [
    [10, 12, { tempo: 1, requiredTempo: 1, fits: true }],
    [10, 10, { tempo: 1, requiredTempo: 1, fits: true }],
    [12, 10, { tempo: 1.2, requiredTempo: 1.2, fits: true }],
    [13.5, 10, { tempo: 1.35, requiredTempo: 1.35, fits: true }],
    [10.0001, 10, { tempo: 1.001, requiredTempo: 1.00001, fits: true }],
    [15, 10, { tempo: 1.35, requiredTempo: 1.5, fits: false }],
  ];
  for (const [durationSec, targetSec, expected] of cases) {
    const fit = fitToDuration({ targetSec, durationSec, words });
    assert.deepEqual(
      { tempo: fit.tempo, requiredTempo: Math.round(fit.requiredTempo * 1e9) / 1e9, fits: fit.fits },
      expected,
      `${durationSec} s into ${targetSec} s`,
    );
    assert.ok(!fit.fits || fit.durationSec <= targetSec);
  }
  assert.equal(MAX_TEMPO, 1.35);
});

void test('word timings scale with the tempo', () => {
  const fit = fitToDuration({ targetSec: 8, durationSec: 10, words });
  assert.equal(fit.tempo, 1.25);
  assert.equal(fit.durationSec, 8);
  assert.deepEqual(fit.words, [
    { word: 'One', start: 0, end: 0.48 },
    { word: 'two.', start: 0.48, end: 0.96 },
  ]);
});

void test('a different ceiling can be given; the target must be positive', () => {
  assert.equal(fitToDuration({ targetSec: 5, durationSec: 10, words, maxTempo: 1.5 }).tempo, 1.5);
  assert.throws(() => fitToDuration({ targetSec: 0, durationSec: 10, words }), RangeError);
});
