import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assColor } from './ass-color.ts';
import { buildAss } from './build-ass.ts';
import { captionStyleProblems, type CaptionStyle } from './caption-style.ts';
import {
  CAPTION_STYLE_CATEGORIES,
  CAPTION_STYLE_IDS,
  CAPTION_STYLE_PRESETS,
  captionStyleById,
  DEFAULT_BRAND_COLORS,
  readableOn,
  resolveCaptionBrand,
} from './style-catalogue.ts';

const FULL_HD = { width: 1080, height: 1920 };
const SAMPLE = [
  { word: 'Your', start: 0.3, end: 0.6 },
  { word: 'story', start: 0.65, end: 1.1 },
  { word: 'matters.', start: 1.15, end: 1.7 },
];

/** The [V4+ Styles] lines and the override tags of the events: what libass draws differently. */
function rendering(style: CaptionStyle): string {
  const ass = buildAss(SAMPLE, style, FULL_HD);
  const styles = ass.split('\n').filter((l) => l.startsWith('Style:'));
  const tags = ass
    .split('\n')
    .filter((l) => l.startsWith('Dialogue:'))
    .map((l) => (l.match(/\{[^}]*\}/g) ?? []).join('').replace(/\\kf\d+/g, '\\kf'));
  return [...styles, style.animation, ...new Set(tags)].join('\n');
}

/** Coarse visual traits; two presets that share all but one of them would look nearly alike. */
function traits(s: CaptionStyle): string[] {
  const usesHighlight = !['none', 'fade', 'pop'].includes(s.animation);
  const edgeVisible = s.outlineWidth > 0 && (s.outlineOpacity ?? 1) > 0;
  return [
    `font ${s.fontFamily} ${s.bold} ${s.italic}`,
    `size ${Math.round(s.fontSize / 8)}`,
    `upper ${s.uppercase}`,
    `text ${s.primaryColor}`,
    `highlight ${usesHighlight ? s.highlightColor : '-'}`,
    `edge ${s.border} ${edgeVisible ? s.outlineColor : '-'}`,
    `hard shadow ${s.shadowDepth >= 5 && s.shadowOpacity > 0.8 ? s.shadowColor : '-'}`,
    `glow ${(s.blur ?? 0) >= 5}`,
    `tilt ${s.rotation ?? 0}`,
    `position ${s.position}`,
    `animation ${s.animation}`,
    `words ${s.chunking.maxWords}`,
  ];
}

describe('caption style catalogue', () => {
  test('63 presets in exactly the five categories', () => {
    assert.equal(CAPTION_STYLE_PRESETS.length, 63);
    assert.deepEqual(CAPTION_STYLE_CATEGORIES, ['default', 'neon', 'bold', 'karaoke-highlighted', 'branded']);
    const counts = new Map<string, number>();
    for (const p of CAPTION_STYLE_PRESETS) counts.set(p.category, (counts.get(p.category) ?? 0) + 1);
    assert.deepEqual([...counts.keys()].sort(), [...CAPTION_STYLE_CATEGORIES].sort());
    for (const [category, count] of counts) assert.ok(count >= 10, `${category}: ${count}`);
  });

  test('ids are unique kebab-case and listed in order in CAPTION_STYLE_IDS', () => {
    assert.deepEqual(
      CAPTION_STYLE_IDS,
      CAPTION_STYLE_PRESETS.map((p) => p.id),
    );
    assert.equal(new Set(CAPTION_STYLE_IDS).size, 63);
    for (const id of CAPTION_STYLE_IDS) assert.match(id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.equal(new Set(CAPTION_STYLE_PRESETS.map((p) => p.name)).size, 63);
  });

  test('every preset is a valid, described style', () => {
    for (const p of CAPTION_STYLE_PRESETS) {
      assert.deepEqual(captionStyleProblems(p.style), [], p.id);
      assert.ok(p.name.length > 0 && p.description.length > 10, p.id);
    }
  });

  test('every pair of presets renders differently', () => {
    const seen = new Map<string, string>();
    for (const p of CAPTION_STYLE_PRESETS) {
      const key = rendering(p.style);
      assert.equal(seen.get(key), undefined, `${p.id} renders like ${seen.get(key)}`);
      seen.set(key, p.id);
    }
  });

  test('every pair of presets differs in at least two visual traits', () => {
    const all = CAPTION_STYLE_PRESETS.map((p) => ({ id: p.id, traits: traits(p.style) }));
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1)) {
        const differing = a.traits.filter((t, k) => t !== b.traits[k]);
        assert.ok(differing.length >= 2, `${a.id} vs ${b.id} differ only in: ${differing.join(', ')}`);
      }
    }
  });

  test('presets cannot be changed through the catalogue', () => {
    const first = CAPTION_STYLE_PRESETS[0]!;
    assert.throws(() => {
      (first.style as { fontSize: number }).fontSize = 10;
    }, TypeError);
  });

  test('only branded presets take brand colours', () => {
    for (const p of CAPTION_STYLE_PRESETS)
      assert.equal(p.brandColors !== undefined, p.category === 'branded', p.id);
  });
});

describe('captionStyleById', () => {
  test('unknown id', () => {
    assert.equal(captionStyleById('no-such-style'), undefined);
    assert.equal(captionStyleById(''), undefined);
  });

  test('without a brand every preset gives its catalogue style, as a copy', () => {
    for (const p of CAPTION_STYLE_PRESETS) assert.deepEqual(captionStyleById(p.id), p.style, p.id);
    const copy = captionStyleById('clean-white')!;
    copy.fontSize = 10;
    assert.equal(captionStyleById('clean-white')?.fontSize, 76);
  });

  test('branded presets default to the default brand colours', () => {
    assert.equal(captionStyleById('brand-highlight')?.highlightColor, DEFAULT_BRAND_COLORS.accentColor);
    assert.equal(captionStyleById('brand-box')?.outlineColor, DEFAULT_BRAND_COLORS.primaryColor);
  });

  test('branded presets take the brand primary and accent colours', () => {
    const brand = { primaryColor: '#1b1b3a', accentColor: '#00C2A8' };
    const box = captionStyleById('brand-box', brand)!;
    assert.equal(box.outlineColor, '#1B1B3A');
    assert.equal(box.primaryColor, '#FFFFFF', 'white text on a dark brand box');
    const karaoke = captionStyleById('brand-karaoke', brand)!;
    assert.equal(karaoke.highlightColor, '#00C2A8');
    assert.equal(karaoke.outlineColor, '#1B1B3A');
    assert.equal(captionStyleById('brand-shadow', brand)?.shadowColor, '#00C2A8');
    // The colour reaches the ASS style line: karaoke fills into the primary colour slot.
    const styleLine = buildAss(SAMPLE, karaoke, FULL_HD)
      .split('\n')
      .find((l) => l.startsWith('Style:'));
    assert.ok(styleLine?.includes(`,${assColor('#00C2A8')},`), styleLine);
    assert.ok(styleLine?.includes(`,${assColor('#1B1B3A')},`), styleLine);
  });

  test('text on a light brand colour turns dark', () => {
    const box = captionStyleById('brand-box', { primaryColor: '#FFEB3B' })!;
    assert.equal(box.outlineColor, '#FFEB3B');
    assert.equal(box.primaryColor, '#111111');
    const banner = captionStyleById('brand-banner-top', { accentColor: '#0B3D91' })!;
    assert.equal(banner.outlineColor, '#0B3D91');
    assert.equal(banner.primaryColor, '#FFFFFF');
  });

  test('every branded preset changes with the brand', () => {
    const brand = { primaryColor: '#123456', accentColor: '#ABCDEF' };
    for (const p of CAPTION_STYLE_PRESETS.filter((x) => x.category === 'branded'))
      assert.notDeepEqual(captionStyleById(p.id, brand), p.style, p.id);
  });

  test('only one brand colour, or a malformed one, keeps the default for the other', () => {
    const style = captionStyleById('brand-karaoke', { primaryColor: 'navy', accentColor: '#00C2A8' })!;
    assert.equal(style.outlineColor, DEFAULT_BRAND_COLORS.primaryColor);
    assert.equal(style.highlightColor, '#00C2A8');
  });

  test('other presets ignore the brand', () => {
    assert.deepEqual(
      captionStyleById('neon-pink', { primaryColor: '#123456', accentColor: '#ABCDEF', fontFamily: 'Lato' }),
      captionStyleById('neon-pink'),
    );
  });

  test("branded presets take the brand's font into the ASS style line", () => {
    const serif = captionStyleById('brand-serif', { fontFamily: 'playfair display' })!;
    assert.equal(serif.fontFamily, 'Playfair Display');
    const styleLine = buildAss(SAMPLE, serif, FULL_HD)
      .split('\n')
      .find((l) => l.startsWith('Style:'));
    assert.match(styleLine ?? '', /^Style: Caption,Playfair Display,/);
    assert.equal(captionStyleById('brand-serif', { fontFamily: 'Garamond' })?.fontFamily, 'Liberation Serif');
  });
});

describe('resolveCaptionBrand', () => {
  test('valid colours upper-cased, a font we have by its exact name', () => {
    assert.deepEqual(resolveCaptionBrand({ primaryColor: '#0b3d91', fontFamily: ' work sans ' }), {
      primaryColor: '#0B3D91',
      accentColor: DEFAULT_BRAND_COLORS.accentColor,
      fontFamily: 'Work Sans',
    });
    assert.equal(resolveCaptionBrand({ fontFamily: 'Segoe UI' }).fontFamily, null);
    assert.equal(resolveCaptionBrand().fontFamily, null);
  });
});

describe('readableOn', () => {
  const cases: [string, string][] = [
    ['#FFFFFF', '#111111'],
    ['#FFEB3B', '#111111'],
    ['#F59E0B', '#111111'],
    ['#000000', '#FFFFFF'],
    ['#2563EB', '#FFFFFF'],
    ['#1B1B3A', '#FFFFFF'],
  ];
  for (const [background, text] of cases) test(background, () => assert.equal(readableOn(background), text));
});
