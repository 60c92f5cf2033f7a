import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deltaE2000 } from './contrast.ts';
import { DEFAULT_ACCENT, DEFAULT_PRIMARY, deriveKitColors, type KitColors } from './kit-colors.ts';

// WCAG 2 contrast written out here from the definition, independently of the library the code uses.
function luminance(hex: string): number {
  const channel = (i: number) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
function wcag(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const HEX = /^#[0-9A-F]{6}$/;

function assertReadable(kit: KitColors, label: string): void {
  for (const value of Object.values(kit).filter((v) => typeof v === 'string'))
    assert.match(value, HEX, `${label}: ${value}`);
  const pairs: [string, string, string][] = [
    ['text on background', kit.text, kit.background],
    ['text on surface', kit.text, kit.surface],
    ['on_primary', kit.on_primary, kit.primary],
    ['on_accent', kit.on_accent, kit.accent],
  ];
  for (const [what, fg, bg] of pairs)
    assert.ok(wcag(fg, bg) >= 4.5, `${label}: ${what} ${fg} on ${bg} is ${wcag(fg, bg).toFixed(2)}:1`);
}

/** Deterministic PRNG (mulberry32), so a failure names an input that can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

void describe('deriveKitColors', () => {
  void test('provided colours are kept (as #RRGGBB) and marked provided', () => {
    const kit = deriveKitColors({ primary: '#0a7cff', accent: '#ff5a1f', logoColors: ['#00AA00'] });
    assert.equal(kit.primary, '#0A7CFF');
    assert.equal(kit.accent, '#FF5A1F');
    assert.deepEqual(kit.provenance, { primary: 'provided', accent: 'provided' });
    assertReadable(kit, 'provided');
  });

  void test('omitted colours come from the logo; the accent must differ visibly from the primary', () => {
    const kit = deriveKitColors({ logoColors: ['#1E6FD9', '#1F71DB', 'not a colour', '#E4572E'] });
    assert.equal(kit.primary, '#1E6FD9');
    assert.equal(kit.accent, '#E4572E', 'the near-duplicate blue is skipped');
    assert.deepEqual(kit.provenance, { primary: 'extracted', accent: 'extracted' });
    const onlyAccent = deriveKitColors({ primary: '#E4572E', logoColors: ['#E4572E', '#1E6FD9'] });
    assert.equal(onlyAccent.accent, '#1E6FD9');
    assert.deepEqual(onlyAccent.provenance, { primary: 'provided', accent: 'extracted' });
  });

  void test('defaults: a blue primary, its complement as accent; amber beside a grey primary', () => {
    const kit = deriveKitColors({ logoColors: [] });
    assert.equal(kit.primary, DEFAULT_PRIMARY);
    assert.deepEqual(kit.provenance, { primary: 'default', accent: 'default' });
    assert.ok(deltaE2000(kit.accent, kit.primary) > 30, `accent ${kit.accent} stands apart`);
    const grey = deriveKitColors({ primary: '#333333', logoColors: [] });
    assert.equal(grey.accent, DEFAULT_ACCENT);
    const single = deriveKitColors({ logoColors: ['#0F9D58'] });
    assert.deepEqual(single.provenance, { primary: 'extracted', accent: 'default' });
  });

  void test('surfaces are light with dark text, or dark with light text when the logo is light', () => {
    const light = deriveKitColors({ logoColors: ['#1E6FD9'] });
    assert.ok(luminance(light.background) > 0.8 && luminance(light.text) < 0.05);
    assert.ok(
      luminance(light.surface) < luminance(light.background),
      'the surface stands off the background',
    );
    const dark = deriveKitColors({ logoColors: ['#1E6FD9'], logoLuminance: 'light' });
    assert.ok(luminance(dark.background) < 0.05 && luminance(dark.text) > 0.8);
    assertReadable(dark, 'dark');
  });

  void test('every text colour meets 4.5:1 for many random inputs (property check, seeded)', () => {
    const next = random(20240917);
    const hex = () =>
      '#' +
      Array.from({ length: 3 }, () =>
        Math.floor(next() * 256)
          .toString(16)
          .padStart(2, '0'),
      ).join('');
    // Mid-greys and pure primaries are where contrast is hardest; mix them in with random colours.
    const hard = [
      '#777777',
      '#767676',
      '#808080',
      '#FF0000',
      '#00FF00',
      '#0000FF',
      '#FFFF00',
      '#00FFFF',
      '#FFFFFF',
      '#000000',
    ];
    const pick = () => (next() < 0.2 ? hard[Math.floor(next() * hard.length)]! : hex());
    for (let i = 0; i < 600; i++) {
      const input = {
        primary: next() < 0.5 ? pick() : undefined,
        accent: next() < 0.5 ? pick() : undefined,
        logoColors: Array.from({ length: Math.floor(next() * 4) }, pick),
        logoLuminance: (['light', 'dark', 'mixed', undefined] as const)[Math.floor(next() * 4)],
      };
      assertReadable(deriveKitColors(input), JSON.stringify(input));
    }
  });
});
