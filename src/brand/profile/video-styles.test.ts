import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTENT_STYLES } from '../../media/script/writer.ts';
import { styleAdvice } from './video-styles.ts';

describe('styleAdvice', () => {
  test('calm, caring tones recommend calm videos and avoid energetic ones', () => {
    const advice = styleAdvice(['calm', 'caring']);
    assert.equal(advice.video_styles[0], 'calm');
    assert.ok(advice.anti_styles.includes('energetic'));
  });

  test('energetic, provocative tones turn it around', () => {
    const advice = styleAdvice(['energetic', 'provocative']);
    assert.equal(advice.video_styles[0], 'energetic');
    assert.deepEqual(advice.anti_styles, ['calm']);
  });

  test('every value is a content_style, and a style is never both recommended and avoided', () => {
    for (const tones of [
      ['technical', 'professional'],
      ['playful', 'warm'],
      ['luxurious', 'calm', 'inspiring'],
    ] as const) {
      const advice = styleAdvice(tones);
      for (const s of [...advice.video_styles, ...advice.anti_styles]) assert.ok(CONTENT_STYLES.includes(s));
      assert.ok(advice.video_styles.length >= 1 && advice.video_styles.length <= 3);
      assert.ok(advice.anti_styles.every((s) => !advice.video_styles.includes(s)));
    }
    assert.deepEqual(styleAdvice([]).video_styles, ['professional']);
  });
});
