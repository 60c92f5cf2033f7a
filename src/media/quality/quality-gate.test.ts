import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFailures, FULL_POLICY, judgeQuality, type DeliveryMeasurement } from './quality-gate.ts';

const clean: DeliveryMeasurement = {
  loudness: { integratedLufs: -14.2, truePeakDb: -1.6, lra: 4 },
  black: [],
  frozen: [],
  videoStreamSec: 12,
  audioStreamSec: 12.01,
  narrationLagSec: 0.002,
  narrationCorrelation: 0.9,
  captionOffsets: { count: 20, medianMs: 3, worstMs: 8, worstAt: 4.2 },
  captionBoxes: [{ at: 1, x1: 100, y1: 1300, x2: 980, y2: 1480 }],
  frame: { width: 1080, height: 1920 },
  measureSec: 1,
};

describe('judgeQuality', () => {
  test('a clean measurement passes every check', () => {
    const report = judgeQuality(clean, { plannedSec: 12, requestedSec: 15 });
    assert.equal(report.passed, true);
    assert.deepEqual(report.failed, []);
    assert.equal(report.checks.duration.requested_sec, 15);
    assert.equal(report.checks.av_sync.difference_ms, 10);
  });

  test('each limit is the documented one', () => {
    const at = (patch: Partial<DeliveryMeasurement>) =>
      judgeQuality({ ...clean, ...patch }, { plannedSec: 12 }).failed;
    assert.deepEqual(at({ loudness: { integratedLufs: -15.1, truePeakDb: -2, lra: 1 } }), ['loudness']);
    assert.deepEqual(at({ loudness: { integratedLufs: -13, truePeakDb: -0.9, lra: 1 } }), ['true_peak']);
    assert.deepEqual(at({ loudness: null, audioStreamSec: null }), ['loudness', 'true_peak', 'av_sync']);
    assert.deepEqual(at({ black: [{ start: 2, end: 2.6, duration: 0.6 }] }), ['black']);
    assert.deepEqual(at({ frozen: [{ start: 2, end: 2.5, duration: 0.5 }] }), []);
    assert.deepEqual(at({ audioStreamSec: 12.041 }), ['av_sync']);
    assert.deepEqual(at({ captionOffsets: { count: 5, medianMs: 20, worstMs: 100, worstAt: 1 } }), [
      'caption_sync',
    ]);
    assert.deepEqual(at({ videoStreamSec: 12.2, audioStreamSec: 12.2 }), ['duration']);
    assert.deepEqual(at({ captionBoxes: [{ at: 1, x1: 100, y1: 200, x2: 980, y2: 300 }] }), ['safe_zone']);
  });

  test('an end card is still on purpose; a reported-only check does not fail the render', () => {
    const card = { ...clean, frozen: [{ start: 9, end: 12, duration: 3 }] };
    assert.equal(judgeQuality(card, { plannedSec: 12, stillFrom: 9 }).passed, true);
    const stalled = { ...clean, frozen: [{ start: 7, end: 12, duration: 5 }] };
    const report = judgeQuality(stalled, { plannedSec: 12, stillFrom: 9 });
    assert.deepEqual(report.checks.frozen.runs, [{ start: 7, end: 9, duration: 2 }]);
    assert.match(describeFailures(report), /frozen stretch of 2 s at 7–9 s/);
    const hosted = judgeQuality(card, { plannedSec: 12, policy: { ...FULL_POLICY, frozen: false } });
    assert.equal(hosted.passed, true);
    assert.equal(hosted.checks.frozen.passed, false);
    assert.equal(hosted.checks.frozen.gated, false);
  });
});
