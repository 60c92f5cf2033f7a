import { test } from 'node:test';
import assert from 'node:assert/strict';
import { espeakSynthesisArgs, speedToWordsPerMinute } from './espeak-args.ts';

void test('speed maps onto espeak words per minute around 175', () => {
  const cases: [number, number][] = [
    [0.7, 122],
    [1, 175],
    [1.1, 193],
    [1.3, 228],
  ];
  for (const [speed, wpm] of cases) assert.equal(speedToWordsPerMinute(speed), wpm, String(speed));
});

void test('speeds outside 0.7–1.3 are refused', () => {
  for (const speed of [0.69, 1.31, Number.NaN]) assert.throws(() => speedToWordsPerMinute(speed), RangeError);
});

void test('synthesis reads the text from stdin', () => {
  assert.deepEqual(espeakSynthesisArgs('roa/es+f3', 150, '/tmp/s.wav'), [
    ...['-v', 'roa/es+f3', '-s', '150', '-w', '/tmp/s.wav', '--stdin'],
  ]);
});
