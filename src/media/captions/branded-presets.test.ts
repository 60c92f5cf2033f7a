import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brandedCaptionPresets, captionBrandFromKit } from './branded-presets.ts';
import { captionStyleProblems } from './caption-style.ts';
import { CAPTION_STYLE_PRESETS, DEFAULT_BRAND_COLORS, readableOn } from './style-catalogue.ts';

const BRANDED = CAPTION_STYLE_PRESETS.filter((p) => p.category === 'branded');

describe('brandedCaptionPresets', () => {
  test('every branded preset in the kit colours and font', () => {
    const { brand, styles } = brandedCaptionPresets({
      primary: '#0b3d91',
      accent: '#ffcc00',
      font_family: 'montserrat',
    });
    assert.deepEqual(brand, { primaryColor: '#0B3D91', accentColor: '#FFCC00', fontFamily: 'Montserrat' });
    assert.deepEqual(
      styles.map((s) => s.preset.id),
      BRANDED.map((p) => p.id),
    );
    for (const { preset, style } of styles) {
      assert.equal(style.fontFamily, 'Montserrat', preset.id);
      assert.deepEqual(captionStyleProblems(style), [], preset.id);
      const expected = {
        primary: '#0B3D91',
        accent: '#FFCC00',
        'on-primary': '#FFFFFF',
        'on-accent': '#111111',
      };
      for (const [field, from] of Object.entries(preset.brandColors ?? {}))
        assert.equal(style[field as keyof typeof style], expected[from], `${preset.id} ${field}`);
      // Only the font and the brand colours change; the rest of the look is the preset's.
      assert.equal(style.fontSize, preset.style.fontSize, preset.id);
      assert.deepEqual(style.chunking, preset.style.chunking, preset.id);
      assert.equal(style.animation, preset.style.animation, preset.id);
    }
    assert.equal(readableOn('#0B3D91'), '#FFFFFF');
  });

  test('a kit without colours or font gives the presets as listed by default', () => {
    const { brand, styles } = brandedCaptionPresets({});
    assert.deepEqual(brand, { ...DEFAULT_BRAND_COLORS, fontFamily: null });
    for (const { preset, style } of styles) assert.deepEqual(style, preset.style, preset.id);
  });

  test('a font we do not have leaves each preset in its own font', () => {
    const { brand, styles } = brandedCaptionPresets({ primary: '#112233', font_family: 'Proxima Nova' });
    assert.equal(brand.fontFamily, null);
    for (const { preset, style } of styles)
      assert.equal(style.fontFamily, preset.style.fontFamily, preset.id);
  });

  test('a malformed kit colour falls back to the default colour', () => {
    assert.equal(
      brandedCaptionPresets({ primary: 'navy' }).brand.primaryColor,
      DEFAULT_BRAND_COLORS.primaryColor,
    );
  });
});

describe('captionBrandFromKit', () => {
  test('maps kit fields onto the catalogue brand', () => {
    assert.deepEqual(captionBrandFromKit({ primary: '#010203', accent: null, font_family: 'Inter' }), {
      primaryColor: '#010203',
      fontFamily: 'Inter',
    });
  });
});
