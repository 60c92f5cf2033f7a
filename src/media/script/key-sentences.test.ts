import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentTerms, keySentences, termOverlap } from './key-sentences.ts';

describe('contentTerms', () => {
  const cases: [string, string[]][] = [
    ['The panels float on the basin', ['panel', 'float', 'basin']],
    ["The city's new policies", ['city', 'new', 'policy']],
    ['Glass and bus pass', ['glass', 'bus', 'pass']],
  ];
  for (const [text, terms] of cases) test(text, () => assert.deepEqual(contentTerms(text), terms));
});

test('termOverlap is the shared share of the smaller set', () => {
  assert.equal(termOverlap(new Set(['a', 'b']), new Set(['b', 'c', 'd'])), 0.5);
  assert.equal(termOverlap(new Set(), new Set(['a'])), 0);
});

describe('keySentences', () => {
  const TEXT = [
    'Okay, let us go.',
    'Volcanoes form where magma rises through cracks in the crust.',
    'Pressure builds under the crust until the magma breaks through.',
    'Pretty wild, right?',
    'Most volcanoes sit along the edges of tectonic plates.',
  ].join(' ');

  test('picks the sentences that carry the recurring, specific words, in the text’s order', () => {
    assert.deepEqual(keySentences(TEXT, { maxSentences: 2, maxChars: 400 }), [
      'Volcanoes form where magma rises through cracks in the crust.',
      'Pressure builds under the crust until the magma breaks through.',
    ]);
  });

  test('focus words, skipped sentences, the character budget and repeats', () => {
    assert.deepEqual(keySentences(TEXT, { maxSentences: 1, maxChars: 400, focus: 'tectonic plates' }), [
      'Most volcanoes sit along the edges of tectonic plates.',
    ]);
    const skipMagma = keySentences(TEXT, {
      maxSentences: 1,
      maxChars: 400,
      skip: (s) => s.includes('magma'),
    });
    assert.deepEqual(skipMagma, ['Most volcanoes sit along the edges of tectonic plates.']);
    assert.equal(keySentences(TEXT, { maxSentences: 3, maxChars: 70 }).length, 1);
    const repeated = 'Sharks are fish. Sharks are fish, really. Dolphins are mammals that breathe air.';
    assert.deepEqual(keySentences(repeated, { maxSentences: 3, maxChars: 400 }), [
      'Sharks are fish.',
      'Dolphins are mammals that breathe air.',
    ]);
  });

  test('nothing to quote without a content word', () => {
    assert.deepEqual(keySentences('Uh. Um, so.', { maxSentences: 2, maxChars: 400 }), []);
    assert.deepEqual(keySentences('', { maxSentences: 2, maxChars: 400 }), []);
  });
});
