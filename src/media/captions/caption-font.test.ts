import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withCaptionFont } from './caption-font.ts';
import { highlightPreset } from './caption-presets.ts';
import { captionStyleById } from './style-catalogue.ts';

describe('withCaptionFont', () => {
  const base = highlightPreset();

  test('a shipped family with a bold face keeps the bold look and every size', () => {
    assert.deepEqual(withCaptionFont(base, 'inter'), { ...base, fontFamily: 'Inter' });
  });

  test('a family without a bold face is drawn at its own weight, not emboldened', () => {
    assert.deepEqual(withCaptionFont(base, 'Bebas Neue'), { ...base, fontFamily: 'Bebas Neue', bold: false });
    assert.equal(withCaptionFont(base, 'ANTON').bold, false);
  });

  test('a system caption family is taken as it is', () => {
    assert.deepEqual(withCaptionFont(base, 'liberation serif'), { ...base, fontFamily: 'Liberation Serif' });
  });

  test('an unknown or missing family leaves the look in its own font', () => {
    const serif = captionStyleById('cinema-serif')!;
    assert.equal(withCaptionFont(serif, 'Helvetica Neue'), serif);
    assert.equal(withCaptionFont(base, null), base);
    assert.equal(withCaptionFont(base, undefined), base);
  });
});
