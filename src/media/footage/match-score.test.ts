import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchScore, unmatchedSentences, wordsOfStems, type MatchScoreInput } from './match-score.ts';
import { contentStems } from './text-match.ts';

describe('matchScore (docs/footage.md)', () => {
  const base: MatchScoreInput = { sentenceTerms: 5, matchedTerms: 0, nicheFit: 'none', keywordHit: false };
  const cases: [string, Partial<MatchScoreInput>, number][] = [
    ['one word of a one-word sentence', { sentenceTerms: 1, matchedTerms: 1 }, 1],
    ['one of five words', { matchedTerms: 1 }, 0.6],
    ['two of five words', { matchedTerms: 2 }, 0.8],
    ['three of five words is a full match', { matchedTerms: 3 }, 1],
    ['five of five words', { matchedTerms: 5 }, 1],
    ['one of two words', { sentenceTerms: 2, matchedTerms: 1 }, 0.7],
    [
      'a word match ignores niche and keywords',
      { matchedTerms: 1, nicheFit: 'requested', keywordHit: true },
      0.6,
    ],
    ['niche fallback: the requested niche', { nicheFit: 'requested' }, 0.3],
    ['niche fallback: a closest niche', { nicheFit: 'closest' }, 0.2],
    ['niche fallback: abstract, the last resort', { nicheFit: 'abstract' }, 0.1],
    ['no word, no niche', {}, 0],
    ['a footage keyword adds 0.05', { nicheFit: 'requested', keywordHit: true }, 0.35],
    ['a footage keyword alone', { keywordHit: true }, 0.05],
    ['a sentence without content words', { sentenceTerms: 0, nicheFit: 'closest' }, 0.2],
  ];
  for (const [name, input, expected] of cases)
    test(name, () => assert.equal(matchScore({ ...base, ...input }), expected));

  test('every fallback scores below every word match', () => {
    const fallbacks = (['requested', 'closest', 'abstract', 'none'] as const).flatMap((nicheFit) =>
      [true, false].map((keywordHit) => matchScore({ ...base, nicheFit, keywordHit })),
    );
    const weakestMatch = matchScore({ ...base, sentenceTerms: 40, matchedTerms: 1 });
    assert.ok(Math.max(...fallbacks) < weakestMatch, `${Math.max(...fallbacks)} < ${weakestMatch}`);
  });

  test('each fallback step keeps the selection order (niche before keyword)', () => {
    const order = [
      { nicheFit: 'requested', keywordHit: true },
      { nicheFit: 'requested', keywordHit: false },
      { nicheFit: 'closest', keywordHit: true },
      { nicheFit: 'closest', keywordHit: false },
      { nicheFit: 'abstract', keywordHit: true },
      { nicheFit: 'abstract', keywordHit: false },
      { nicheFit: 'none', keywordHit: true },
      { nicheFit: 'none', keywordHit: false },
    ] as const;
    const scores = order.map((o) => matchScore({ ...base, ...o }));
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i - 1]! > scores[i]!, scores.join(' > '));
  });
});

test('wordsOfStems gives the sentence’s own spelling, once per stem', () => {
  const sentence = 'Waves roll in; the wave breaks on golden sand, gold everywhere.';
  const stems = new Set([...contentStems('wave gold'), 'nothing']);
  assert.deepEqual(wordsOfStems(sentence, stems), ['waves', 'gold']);
  assert.deepEqual(wordsOfStems(sentence, new Set()), []);
});

describe('unmatchedSentences', () => {
  const clips = [
    { title: 'Gold dust rising on black', tags: ['particles', 'gold'] },
    { title: 'Ocean waves', tags: [] },
  ];

  test('lists the sentences no title or tag shares a word with, with their content words', () => {
    const gaps = unmatchedSentences(
      [
        'Golden dust rises.',
        'Quantum computers crack every code.',
        'The waves return.',
        'So here it is.',
        'Quantum computers again, and qubits.',
      ],
      clips,
    );
    assert.deepEqual(gaps, [
      {
        index: 1,
        sentence: 'Quantum computers crack every code.',
        words: ['quantum', 'computers', 'crack', 'code'],
      },
      {
        index: 4,
        sentence: 'Quantum computers again, and qubits.',
        words: ['quantum', 'computers', 'qubits'],
      },
    ]);
  });

  test('an empty library matches nothing', () => {
    assert.deepEqual(
      unmatchedSentences(['Gold.'], []).map((g) => g.index),
      [0],
    );
  });
});
