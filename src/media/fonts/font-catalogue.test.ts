import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  FALLBACK_FONT_FAMILY,
  findFontFamily,
  findShippedFontFamily,
  fontFamilyKey,
  resolveFontFamily,
  SHIPPED_FONT_FAMILIES,
  shippedFontFiles,
  SYSTEM_FONT_FAMILIES,
} from './font-catalogue.ts';

const require = createRequire(import.meta.url);

interface FontsourceMetadata {
  family: string;
  subsets: string[];
  weights: number[];
  styles: string[];
  license: { type: string };
}

describe('shipped font families', () => {
  for (const family of SHIPPED_FONT_FAMILIES) {
    test(`${family.family} matches what ${family.package} ships`, () => {
      const meta = JSON.parse(
        readFileSync(require.resolve(`${family.package}/metadata.json`), 'utf8'),
      ) as FontsourceMetadata;
      assert.equal(meta.family, family.family);
      assert.ok(meta.styles.includes('normal'));
      assert.ok(meta.subsets.includes('latin') && meta.subsets.includes('latin-ext'), meta.subsets.join());
      assert.equal(meta.license.type, 'OFL-1.1');
      // Regular always; bold exactly when the family has a bold face.
      assert.ok(meta.weights.includes(400));
      assert.equal(family.weights.includes(700), meta.weights.includes(700));
      const files = shippedFontFiles(family);
      assert.equal(files.length, family.weights.length * 2);
      for (const file of files) assert.ok(existsSync(file.path), file.path);
    });
  }

  test('file names are unique across families', () => {
    const names = SHIPPED_FONT_FAMILIES.flatMap(shippedFontFiles).map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
  });

  test('no two families share a matching key', () => {
    const keys = [...SHIPPED_FONT_FAMILIES.map((f) => f.family), ...Object.keys(SYSTEM_FONT_FAMILIES)].map(
      fontFamilyKey,
    );
    assert.equal(new Set(keys).size, keys.length);
  });
});

describe('system font families', () => {
  // fonts-dejavu-core and fonts-liberation2 (scripts/install-system-packages.sh).
  for (const [family, file] of Object.entries(SYSTEM_FONT_FAMILIES)) {
    test(`${family} is installed`, () => assert.ok(existsSync(file), file));
  }
});

describe('resolveFontFamily', () => {
  const cases: [string | null | undefined, string][] = [
    ['Bebas Neue', 'Bebas Neue'],
    ['bebas neue', 'Bebas Neue'],
    ['  BEBAS   NEUE ', 'Bebas Neue'],
    ['BebasNeue', 'Bebas Neue'],
    ['bebas-neue', 'Bebas Neue'],
    ['"Playfair Display"', 'Playfair Display'],
    ['dm_sans', 'DM Sans'],
    ['open sans', 'Open Sans'],
    ['liberation serif', 'Liberation Serif'],
    ['Comic Sans MS', FALLBACK_FONT_FAMILY],
    ['Inter Tight', FALLBACK_FONT_FAMILY],
    ['', FALLBACK_FONT_FAMILY],
    [null, FALLBACK_FONT_FAMILY],
    [undefined, FALLBACK_FONT_FAMILY],
  ];
  for (const [name, family] of cases) {
    test(`${JSON.stringify(name)} → ${family}`, () => assert.equal(resolveFontFamily(name), family));
  }

  test('the fallback is a system family every render has', () => {
    assert.equal(FALLBACK_FONT_FAMILY, 'DejaVu Sans');
    assert.ok(FALLBACK_FONT_FAMILY in SYSTEM_FONT_FAMILIES);
  });

  test('findFontFamily and findShippedFontFamily say when a family is not ours', () => {
    assert.equal(findFontFamily('Helvetica'), undefined);
    assert.equal(findShippedFontFamily('DejaVu Sans'), undefined);
    assert.equal(findShippedFontFamily('anton')?.package, '@fontsource/anton');
  });
});
