import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gainFilter, initialGain, isSilent, nextLimitedGain } from './loudness-plan.ts';

const TARGET = { integratedLufs: -14, truePeakDb: -1.5 };

describe('initialGain', () => {
  const cases: [string, number, number, ReturnType<typeof initialGain>][] = [
    ['quiet mix with headroom', -24, -16, { gainDb: 10, limiter: false }],
    ['gain would push peaks over the ceiling', -20, -4, { gainDb: 6, limiter: true }],
    ['peak between the limiter ceiling and the target', -20, -7.5, { gainDb: 6, limiter: true }],
    ['peak exactly at the limiter ceiling', -20, -8.5, { gainDb: 6, limiter: false }],
    ['loud mix is turned down', -9, -0.5, { gainDb: -5, limiter: false }],
    ['silence', -70, -Infinity, { gainDb: 0, limiter: false }],
  ];
  for (const [name, i, tp, expected] of cases) {
    test(name, () =>
      assert.deepEqual(initialGain({ integratedLufs: i, truePeakDb: tp, lra: 5 }, TARGET), expected),
    );
  }
});

describe('nextLimitedGain', () => {
  const cases: [string, [number, number][], number][] = [
    ['first correction assumes 1 dB per dB', [[6, -14.4]], 6.4],
    [
      'then follows the measured slope',
      [
        [6, -15],
        [7, -14.5],
      ],
      8,
    ],
    [
      'slope is kept at 0.25 or more',
      [
        [6, -15],
        [7, -14.95],
      ],
      10.8,
    ],
    [
      'and at 1 or less',
      [
        [6, -16],
        [7, -14.5],
      ],
      7.5,
    ],
  ];
  for (const [name, trials, expected] of cases) {
    test(name, () => {
      const gain = nextLimitedGain(
        trials.map(([gainDb, measuredLufs]) => ({ gainDb, measuredLufs })),
        TARGET,
      );
      assert.equal(gain.limiter, true);
      assert.ok(Math.abs(gain.gainDb - expected) < 1e-9, `${gain.gainDb} vs ${expected}`);
    });
  }
  test('needs a trial', () => assert.throws(() => nextLimitedGain([], TARGET)));
});

describe('isSilent', () => {
  const cases: [number, boolean][] = [
    [-70, true],
    [-Infinity, true],
    [-69.9, false],
  ];
  for (const [i, expected] of cases) {
    test(String(i), () => assert.equal(isSilent({ integratedLufs: i, truePeakDb: 0, lra: 0 }), expected));
  }
});

describe('gainFilter', () => {
  test('plain gain', () =>
    assert.equal(gainFilter({ gainDb: 9.7049, limiter: false }, TARGET), 'volume=9.7dB'));
  test('gain with a limiter 1 dB under the true-peak target', () =>
    assert.equal(
      gainFilter({ gainDb: 6.6, limiter: true }, TARGET),
      'volume=6.6dB,alimiter=limit=0.7499:attack=5:release=50:level=false:latency=true',
    ));
});
