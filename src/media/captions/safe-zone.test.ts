import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { frameScale, platformSafeZone } from './safe-zone.ts';

describe('platformSafeZone', () => {
  const cases: [number, number, ReturnType<typeof platformSafeZone>][] = [
    [1080, 1920, { top: 250, bottom: 400, left: 90, right: 90 }],
    [540, 960, { top: 125, bottom: 200, left: 45, right: 45 }],
    [720, 1280, { top: 167, bottom: 267, left: 60, right: 60 }],
    // Landscape and square frames keep clear of a player's edges and its control bar, not of a vertical app's UI.
    [1920, 1080, { top: 54, bottom: 108, left: 96, right: 96 }],
    [1080, 1080, { top: 54, bottom: 108, left: 54, right: 54 }],
  ];
  for (const [width, height, expected] of cases) {
    test(`${width}x${height}`, () => assert.deepEqual(platformSafeZone({ width, height }), expected));
  }
});

test('frameScale follows the shorter side', () => {
  assert.equal(frameScale({ width: 1080, height: 1920 }), 1);
  assert.equal(frameScale({ width: 1920, height: 1080 }), 1);
  assert.equal(frameScale({ width: 270, height: 480 }), 0.25);
});
