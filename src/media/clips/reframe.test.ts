import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MotionAnalysis, MotionShot } from './motion-analysis.ts';
import { cropGeometry, focusCentre, outputSize, planReframe, sameAspect } from './reframe.ts';

test('output sizes, scaled for tests, stay even', () => {
  assert.deepEqual(outputSize('9:16'), { width: 1080, height: 1920 });
  assert.deepEqual(outputSize('16:9'), { width: 1920, height: 1080 });
  assert.deepEqual(outputSize('1:1'), { width: 1080, height: 1080 });
  assert.deepEqual(outputSize('9:16', 0.25), { width: 270, height: 480 });
  assert.deepEqual(outputSize('16:9', 0.1), { width: 192, height: 108 });
});

describe('cropGeometry never stretches: the crop has the target aspect', () => {
  const cases: [
    string,
    { width: number; height: number },
    { width: number; height: number },
    ReturnType<typeof cropGeometry>,
  ][] = [
    [
      '16:9 → 9:16',
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
      { axis: 'x', cropWidth: 608, cropHeight: 1080 },
    ],
    [
      '16:9 → 1:1',
      { width: 1920, height: 1080 },
      { width: 1080, height: 1080 },
      { axis: 'x', cropWidth: 1080, cropHeight: 1080 },
    ],
    [
      '9:16 → 16:9',
      { width: 1080, height: 1920 },
      { width: 1920, height: 1080 },
      { axis: 'y', cropWidth: 1080, cropHeight: 608 },
    ],
    [
      '4:3 → 9:16',
      { width: 640, height: 480 },
      { width: 1080, height: 1920 },
      { axis: 'x', cropWidth: 270, cropHeight: 480 },
    ],
  ];
  for (const [name, source, target, expected] of cases) {
    test(name, () => {
      const g = cropGeometry(source, target);
      assert.deepEqual(g, expected);
      assert.ok(Math.abs(g.cropWidth / g.cropHeight - target.width / target.height) < 0.01);
    });
  }
  test('same aspect is recognized', () => {
    assert.equal(sameAspect({ width: 1280, height: 720 }, { width: 1920, height: 1080 }), true);
    assert.equal(sameAspect({ width: 1920, height: 1080 }, { width: 1080, height: 1080 }), false);
  });
});

describe('focusCentre', () => {
  const profile = (peakAt: number, spread = 0) =>
    Array.from({ length: 20 }, (_, i) => (Math.abs(i - peakAt) <= 1 ? 100 : spread));
  test('concentrated motion gives its centre of mass', () => {
    assert.ok(Math.abs(focusCentre(profile(15), 6, 0.01)! - 15.5) < 1e-9);
  });
  test('motion spread over the frame, or too faint, gives none', () => {
    assert.equal(focusCentre(profile(15, 60), 6, 0.01), null);
    assert.equal(focusCentre(profile(15), 6, 0.0001), null);
    assert.equal(focusCentre(Array(20).fill(0), 6, 0.01), null);
  });
});

function shot(startSec: number, endSec: number, columns: number[], activity = 0.01): MotionShot {
  return { startSec, endSec, columns, rows: Array(54).fill(0), activity };
}
const peak = (at: number) => Array.from({ length: 96 }, (_, i) => (Math.abs(i - at) <= 2 ? 50 : 0));
const flat = Array(96).fill(0);
const motion = (shots: MotionShot[], durationSec: number): MotionAnalysis => ({
  grid: { width: 96, height: 54 },
  durationSec,
  shots,
});
const SOURCE = { width: 1920, height: 1080 };
const VERTICAL = { width: 1080, height: 1920 };

describe('planReframe', () => {
  test('the crop follows the subject shot by shot', () => {
    const plan = planReframe(SOURCE, VERTICAL, motion([shot(0, 5, peak(72)), shot(5, 10, peak(24))], 10));
    assert.equal(plan.mode, 'crop');
    if (plan.mode !== 'crop') return;
    assert.equal(plan.axis, 'x');
    // Subject centres 72.5 and 24.5 of 96 columns → 1450 and 490 px; the 608 px crop is centred on them.
    assert.deepEqual(plan.segments, [
      { startSec: 0, offset: 1146 },
      { startSec: 5, offset: 186 },
    ]);
  });

  test('a still shot keeps the crop of the shot before it', () => {
    const plan = planReframe(SOURCE, VERTICAL, motion([shot(0, 6, peak(72)), shot(6, 9, flat, 0)], 9));
    assert.deepEqual(plan.mode === 'crop' && plan.segments, [{ startSec: 0, offset: 1146 }]);
  });

  test('the crop stays inside the picture', () => {
    const plan = planReframe(SOURCE, VERTICAL, motion([shot(0, 5, peak(94))], 5));
    assert.deepEqual(plan.mode === 'crop' && plan.segments, [{ startSec: 0, offset: 1920 - 608 }]);
  });

  test('mostly still or evenly moving pictures are fitted over a blur', () => {
    assert.equal(planReframe(SOURCE, VERTICAL, motion([shot(0, 10, flat, 0)], 10)).mode, 'fit');
    assert.equal(
      planReframe(SOURCE, VERTICAL, motion([shot(0, 3, peak(50)), shot(3, 10, flat, 0)], 10)).mode,
      'fit',
    );
    assert.equal(planReframe(SOURCE, VERTICAL, motion([shot(0, 10, Array(96).fill(10))], 10)).mode, 'fit');
    assert.equal(planReframe(SOURCE, VERTICAL, null).mode, 'fit');
  });

  test('the same aspect ratio is only scaled', () => {
    assert.deepEqual(planReframe({ width: 1280, height: 720 }, { width: 1920, height: 1080 }, null), {
      mode: 'scale',
    });
  });

  test('a portrait source to landscape crops along the height', () => {
    const rows = Array.from({ length: 96 }, (_, i) => (Math.abs(i - 20) <= 2 ? 50 : 0));
    const m: MotionAnalysis = {
      grid: { width: 54, height: 96 },
      durationSec: 5,
      shots: [{ startSec: 0, endSec: 5, columns: Array(54).fill(0), rows, activity: 0.01 }],
    };
    const plan = planReframe(VERTICAL, { width: 1920, height: 1080 }, m);
    assert.equal(plan.mode === 'crop' && plan.axis, 'y');
    // Row centre 20.5 of 96 → 410 px; the 608 px crop starts 304 px above it.
    assert.deepEqual(plan.mode === 'crop' && plan.segments, [{ startSec: 0, offset: 106 }]);
  });
});
