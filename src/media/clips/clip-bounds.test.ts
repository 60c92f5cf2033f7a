import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clipBounds, PAD_AFTER_SEC, PAD_BEFORE_SEC } from './clip-bounds.ts';

describe('clipBounds', () => {
  const cases: [string, Parameters<typeof clipBounds>[0], number, [number, number]][] = [
    [
      'long silences: the full pads',
      { startSec: 10, endSec: 30, gapBefore: 2, gapAfter: 2 },
      100,
      [10 - PAD_BEFORE_SEC, 30 + PAD_AFTER_SEC],
    ],
    [
      'short silences: cut in their middle',
      { startSec: 10, endSec: 30, gapBefore: 0.3, gapAfter: 0.2 },
      100,
      [9.85, 30.1],
    ],
    [
      'no silence: cut at the word edges',
      { startSec: 10, endSec: 30, gapBefore: 0, gapAfter: 0 },
      100,
      [10, 30],
    ],
    [
      'source edges are not passed',
      { startSec: 0.1, endSec: 59.9, gapBefore: 0.1, gapAfter: 5 },
      60,
      [0.05, 60],
    ],
  ];
  for (const [name, span, duration, [start, end]] of cases) {
    test(name, () => {
      const b = clipBounds(span, duration);
      assert.equal(b.startSec, start);
      assert.equal(b.endSec, end);
      assert.equal(b.durationSec, Math.round((end - start) * 1000) / 1000);
    });
  }
});
