import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAss } from '../captions/build-ass.ts';
import { classicPreset, highlightPreset } from '../captions/caption-presets.ts';
import { captionOffsets, captionOnsets } from './caption-timing.ts';

const frame = { width: 1080, height: 1920 };
const words = ['One', 'small', 'step', 'for', 'a', 'man'].map((word, i) => ({
  word,
  start: 0.25 + i * 0.42,
  end: 0.55 + i * 0.42,
}));

describe('caption timing', () => {
  test('every word of per-word captions is an onset, at its start to the centisecond', () => {
    const onsets = captionOnsets(buildAss(words, highlightPreset(), frame));
    assert.deepEqual(
      onsets,
      words.map((w) => Math.round(w.start * 100) / 100),
    );
    const offsets = captionOffsets(onsets, words, 0);
    assert.equal(offsets.count, words.length);
    assert.ok(offsets.worstMs <= 5, JSON.stringify(offsets));
  });

  test('karaoke fills start each word where the previous fill ends', () => {
    const ass = [
      'Dialogue: 0,0:00:01.00,0:00:02.50,Caption,,0,0,0,,{\\kf40}One {\\kf60}small {\\kf50}step',
      'Dialogue: 0,0:00:03.00,0:00:04.00,Caption,,0,0,0,,Plain',
    ].join('\n');
    assert.deepEqual(captionOnsets(ass), [1, 1.4, 2, 3]);
  });

  test('chunk captions are compared by their first word; a late narration shows as the offset', () => {
    const onsets = captionOnsets(buildAss(words, classicPreset(), frame));
    assert.ok(onsets.length >= 1 && onsets.length < words.length);
    assert.ok(captionOffsets(onsets, words, 0).worstMs <= 5);
    const late = captionOffsets(onsets, words, 0.25);
    assert.ok(Math.abs(late.medianMs - 250) <= 5, JSON.stringify(late));
  });

  test('nothing to compare gives an empty result', () => {
    assert.deepEqual(captionOffsets([], words, 0), { count: 0, medianMs: 0, worstMs: 0, worstAt: null });
  });
});
