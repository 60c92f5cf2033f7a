import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpolateMissing } from './interpolate-timings.ts';

void test('missing words share the gap between their neighbours by length', () => {
  const cases: [Parameters<typeof interpolateMissing>, ReturnType<typeof interpolateMissing>][] = [
    [
      [[{ start: 0, end: 1 }, null, null, { start: 2.5, end: 3 }], [3, 1, 2, 4], { start: 0, end: 4 }],
      {
        timings: [
          { start: 0, end: 1 },
          { start: 1, end: 1.5 },
          { start: 1.5, end: 2.5 },
          { start: 2.5, end: 3 },
        ],
        interpolated: 2,
      },
    ],
    [
      [[null, { start: 1, end: 2 }, null], [1, 1, 3], { start: 0.5, end: 2.6 }],
      {
        timings: [
          { start: 0.5, end: 1 },
          { start: 1, end: 2 },
          { start: 2, end: 2.6 },
        ],
        interpolated: 2,
      },
    ],
    [
      [[null, null], [1, 3], { start: 0, end: 2 }],
      {
        timings: [
          { start: 0, end: 0.5 },
          { start: 0.5, end: 2 },
        ],
        interpolated: 2,
      },
    ],
    [
      [[{ start: 0, end: 1 }], [5], { start: 0, end: 1 }],
      { timings: [{ start: 0, end: 1 }], interpolated: 0 },
    ],
  ];
  for (const [args, expected] of cases) assert.deepEqual(interpolateMissing(...args), expected);
});

void test("a word found before its missing predecessor's gap collapses the gap instead of going backwards", () => {
  const { timings } = interpolateMissing([{ start: 0, end: 1.2 }, null, { start: 1, end: 2 }], [1, 1, 1], {
    start: 0,
    end: 2,
  });
  assert.deepEqual(timings[1], { start: 1.2, end: 1.2 });
});
