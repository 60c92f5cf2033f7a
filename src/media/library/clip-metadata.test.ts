import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  mapMetadata,
  normalizeTag,
  normalizeTags,
  resolveNiche,
  titleFromFilename,
} from './clip-metadata.ts';

void describe('normalizeTag', () => {
  const cases: [string, string][] = [
    ['Sunset', 'sunset'],
    ['  #Sunset   Beach ', 'sunset beach'],
    ['##ai', 'ai'],
    ['NEW\tYORK', 'new york'],
    ['   ', ''],
  ];
  for (const [raw, expected] of cases)
    void test(JSON.stringify(raw), () => assert.equal(normalizeTag(raw), expected));
});

void test('normalizeTags drops empties and duplicates, keeping the first order', () => {
  assert.deepEqual(normalizeTags(['Beach', ' beach', '#Waves', '', 'BEACH', 'sea']), [
    'beach',
    'waves',
    'sea',
  ]);
});

void describe('resolveNiche', () => {
  const cases: [string, string | undefined][] = [
    ['finance/crypto', 'finance/crypto'],
    ['Finance/Crypto', 'finance/crypto'],
    ['space', 'Space'],
    [' travel ', 'travel'],
    ['finance/moon', undefined],
    ['', undefined],
  ];
  for (const [raw, expected] of cases)
    void test(JSON.stringify(raw), () => assert.equal(resolveNiche(raw), expected));
});

void describe('titleFromFilename', () => {
  const cases: [string, string][] = [
    ['sunset_beach-01.MP4', 'sunset beach 01'],
    ['C:\\clips\\city.night.mov', 'city night'],
    ['/tmp/drone--shot.webm', 'drone shot'],
    ['.mp4', ''],
  ];
  for (const [raw, expected] of cases) void test(raw, () => assert.equal(titleFromFilename(raw), expected));
});

void describe('mapMetadata', () => {
  void test('given niches are kept, without repeats', () => {
    assert.deepEqual(
      mapMetadata({ title: 'Gold bars', tags: ['gold'], niches: ['colors/gold', 'colors/gold', 'luxury'] }),
      {
        title: 'Gold bars',
        tags: ['gold'],
        niches: ['colors/gold', 'luxury'],
        niche_source: 'given',
        niche_reason: 'niches were given',
      },
    );
  });
  void test('without niches, the niche vocabulary of the words decides', () => {
    const mapping = mapMetadata({ title: 'Waves rolling onto a beach', tags: ['ocean'] });
    assert.deepEqual(mapping.niches, ['nature/water']);
    assert.equal(mapping.niche_source, 'inferred');
    assert.match(mapping.niche_reason, /'ocean' in keywords/);
    assert.deepEqual(
      mapMetadata({ title: 'Traders watch a stock chart', tags: [], description: 'nasdaq open' }).niches,
      ['finance/trading'],
    );
  });
  void test('words that match no niche file the clip under none, not the default niche', () => {
    const mapping = mapMetadata({ title: 'Grey rectangle', tags: ['plain'] });
    assert.deepEqual(mapping.niches, []);
    assert.equal(mapping.niche_source, 'none');
  });
});
