import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { platformSafeZone } from './safe-zone.ts';

describe('platformSafeZone', () => {
  const cases: [number, number, ReturnType<typeof platformSafeZone>][] = [
    [1080, 1920, { top: 250, bottom: 400, left: 90, right: 90 }],
    [540, 960, { top: 125, bottom: 200, left: 45, right: 45 }],
    [720, 1280, { top: 167, bottom: 267, left: 60, right: 60 }],
  ];
  for (const [width, height, expected] of cases) {
    test(`${width}x${height}`, () => assert.deepEqual(platformSafeZone({ width, height }), expected));
  }
});
