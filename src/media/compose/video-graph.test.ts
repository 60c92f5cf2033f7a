import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveComposeSpec } from './compose-spec.ts';
import { coverFilter, logoBottomOffset } from './video-graph.ts';

describe('coverFilter', () => {
  const cases: [number, number, string][] = [
    [1080, 1920, 'crop=w=min(iw\\,ih*9/16):h=min(ih\\,iw*16/9),scale=1080:1920,format=yuv420p,setsar=1'],
    [1080, 1350, 'crop=w=min(iw\\,ih*4/5):h=min(ih\\,iw*5/4),scale=1080:1350,format=yuv420p,setsar=1'],
    [1920, 1080, 'crop=w=min(iw\\,ih*16/9):h=min(ih\\,iw*9/16),scale=1920:1080,format=yuv420p,setsar=1'],
  ];
  for (const [w, h, expected] of cases) {
    test(`${w}x${h}`, () => assert.equal(coverFilter(w, h), expected));
  }
});

describe('logoBottomOffset', () => {
  test('above the bottom UI and a two-line caption band', () => {
    const spec = resolveComposeSpec({
      outputPath: 'o.mp4',
      durationSec: 1,
      scenes: [{ path: 'a.mp4', inPoint: 0, duration: 1 }],
    });
    assert.equal(logoBottomOffset(spec, 43), 400 + 240 + 43);
  });
});
