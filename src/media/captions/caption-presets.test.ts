import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { captionStyleFromRequest, classicPreset, highlightPreset } from './caption-presets.ts';

describe('highlightPreset', () => {
  test('defaults', () => {
    assert.deepEqual(highlightPreset(), {
      fontFamily: 'DejaVu Sans',
      fontSize: 90,
      bold: true,
      italic: false,
      uppercase: false,
      letterSpacing: 0,
      primaryColor: '#FFFFFF',
      highlightColor: '#FFD60A',
      outlineColor: '#000000',
      border: 'outline',
      outlineWidth: 6,
      shadowDepth: 3,
      shadowColor: '#000000',
      shadowOpacity: 0.5,
      position: 'lower_third',
      chunking: { maxWords: 3, maxChars: 20, maxPauseSec: 0.6, breakOnClause: false },
      animation: 'highlight',
    });
  });
  test('request fields', () => {
    const style = highlightPreset({
      text_color: '#eeeeee',
      highlight_color: '#ff0000',
      position: 'center',
      font_size: 'small',
    });
    assert.equal(style.primaryColor, '#EEEEEE');
    assert.equal(style.highlightColor, '#FF0000');
    assert.equal(style.position, 'center');
    assert.equal(style.fontSize, 56);
  });
  test('rejects a malformed colour', () => {
    assert.throws(() => highlightPreset({ highlight_color: 'yellow' }), /highlight_color must be #RRGGBB/);
  });
});

describe('classicPreset', () => {
  test('bold upper-case phrases without per-word colour', () => {
    const style = classicPreset();
    assert.equal(style.uppercase, true);
    assert.equal(style.bold, true);
    assert.equal(style.animation, 'none');
    assert.deepEqual(style.chunking, { maxWords: 6, maxChars: 30, maxPauseSec: 0.6, breakOnClause: true });
    assert.equal(style.fontSize, 72);
  });
  test('rejects a malformed text colour', () => {
    assert.throws(() => classicPreset({ text_color: '#12345' }), /text_color must be #RRGGBB/);
  });
});

describe('captionStyleFromRequest', () => {
  test('highlight', () =>
    assert.deepEqual(
      captionStyleFromRequest({ style: 'highlight', font_size: 'medium' }),
      highlightPreset({ font_size: 'medium' }),
    ));
  test('classic', () =>
    assert.deepEqual(
      captionStyleFromRequest({ style: 'classic', position: 'top' }),
      classicPreset({ position: 'top' }),
    ));
  test('none', () => assert.equal(captionStyleFromRequest({ style: 'none' }), null));
});

describe('caption font', () => {
  test('the brand font names the ASS font; sizes and colours stay', () => {
    const branded = highlightPreset({ font_size: 'medium' }, 'poppins');
    assert.deepEqual(branded, { ...highlightPreset({ font_size: 'medium' }), fontFamily: 'Poppins' });
    assert.deepEqual(captionStyleFromRequest({ style: 'classic' }, 'Oswald'), {
      ...classicPreset(),
      fontFamily: 'Oswald',
    });
  });
  test('a font we do not have gives the fallback family, exactly the default look', () => {
    assert.deepEqual(highlightPreset({}, 'Futura PT'), highlightPreset());
    assert.equal(highlightPreset({}, 'Futura PT').fontFamily, 'DejaVu Sans');
    assert.deepEqual(captionStyleFromRequest({ style: 'classic' }, null), classicPreset());
  });
});
