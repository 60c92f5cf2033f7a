import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findNarrationLag, logEnvelope } from './narration-lag.ts';

const RATE = 8000;

/** Irregular bursts of a tone, like syllables: loud where `on(t)`. */
function bursts(seconds: number, delaySec: number, bed = 0): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE - delaySec;
    const on = t >= 0 && Math.sin(2 * Math.PI * 1.3 * t) + Math.sin(2 * Math.PI * 2.9 * t + 1) > 0.4;
    out[i] =
      (on ? 0.5 : 0.01) * Math.sin(2 * Math.PI * 220 * (i / RATE)) +
      bed * Math.sin(2 * Math.PI * 97 * (i / RATE));
  }
  return out;
}

describe('findNarrationLag', () => {
  test('finds the narration where it was placed, under a music bed', () => {
    const narration = logEnvelope(bursts(4, 0), RATE);
    for (const delay of [0, 0.12, 0.5, -0.2]) {
      const mix = logEnvelope(bursts(4, delay, 0.05), RATE);
      const { lagSec, correlation } = findNarrationLag(narration, mix);
      assert.ok(Math.abs(lagSec - delay) <= 0.006, `delay ${delay}: found ${lagSec}`);
      assert.ok(correlation > 0.8, `correlation ${correlation}`);
    }
  });
});
