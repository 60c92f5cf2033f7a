import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  blocksIn,
  integratedLufs,
  loudnessSpread,
  peakDb,
  SILENT_LUFS,
  type LoudnessBlock,
} from './loudness-track.ts';

/** Blocks every 100 ms from 0.4 s with the given momentary levels. */
function track(levels: readonly number[], peak = -6): LoudnessBlock[] {
  return levels.map((m, i) => ({ t: Math.round((0.4 + i * 0.1) * 10) / 10, momentaryLufs: m, peakDb: peak }));
}

test('a steady level integrates to itself', () => {
  assert.ok(Math.abs(integratedLufs(track(Array(50).fill(-20))) - -20) < 1e-9);
});

test('silence below the absolute gate and quiet blocks below the relative gate do not count', () => {
  const levels = [...Array(20).fill(-18), ...Array(20).fill(-120.7), ...Array(10).fill(-40)];
  assert.ok(Math.abs(integratedLufs(track(levels)) - -18) < 1e-9);
});

test('two levels average in energy, not in dB', () => {
  const value = integratedLufs(track([...Array(10).fill(-20), ...Array(10).fill(-26)]));
  // Energy mean of -20 and -26 LUFS: 10·log10((1 + 10^-0.6) / 2) − 20 ≈ −22.03.
  assert.ok(Math.abs(value - -22.03) < 0.01, String(value));
});

test('no audible block gives the silence value', () => {
  assert.equal(integratedLufs([]), SILENT_LUFS);
  assert.equal(integratedLufs(track(Array(5).fill(-120.7))), SILENT_LUFS);
});

test('blocksIn keeps blocks whose 400 ms window lies inside the range', () => {
  const blocks = track(Array(100).fill(-20));
  const inside = blocksIn(blocks, 2, 3);
  assert.equal(inside[0]!.t, 2.4);
  assert.equal(inside[inside.length - 1]!.t, 3);
  assert.equal(inside.length, 7);
});

test('peakDb is the highest frame peak of the range', () => {
  const blocks = track(Array(30).fill(-20), -12);
  blocks[10] = { ...blocks[10]!, peakDb: -2 };
  assert.equal(peakDb(blocks, 0, 3), -2);
  assert.equal(peakDb(blocks, 2, 3), -12);
});

test('spread is the deviation of momentary loudness over the gated blocks', () => {
  assert.equal(loudnessSpread(track(Array(20).fill(-20))), 0);
  const spread = loudnessSpread(track([...Array(10).fill(-18), ...Array(10).fill(-22)]));
  assert.ok(Math.abs(spread - 2) < 1e-9);
});
