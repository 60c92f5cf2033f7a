import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { timedWords } from '../../../test/support/long-video-fixture.ts';
import { momentTitle } from './moment-title.ts';
import { splitSpeechUnits } from './speech-units.ts';

function title(sentences: string[], hook: number): string {
  const words = timedWords(sentences, { sentenceGapSec: 0.6 });
  return momentTitle(splitSpeechUnits(words, 60), words, hook);
}

describe('momentTitle', () => {
  const cases: [string, string[], number, string][] = [
    [
      'a strong opening line is the title',
      ['Why do most people never get rich?', 'It is cash.'],
      0.6,
      'Why do most people never get rich?',
    ],
    [
      'without punctuation a question still gets its mark',
      ['why do most people never get rich', 'it is cash'],
      0.6,
      'Why do most people never get rich?',
    ],
    [
      'a weak opening gives way to the most telling sentence',
      ['Okay, so let us start.', 'Ninety percent of businesses fail in five years.', 'That is all.'],
      0.1,
      'Ninety percent of businesses fail in five years',
    ],
    [
      'leading connectives and fillers are dropped, the pronoun i capitalized',
      ['and um i was terrified of the dark'],
      0,
      'I was terrified of the dark',
    ],
    [
      'long lines are cut to ten words without a dangling end',
      ['Imagine losing everything you love in a single night of fire and smoke.'],
      0.6,
      'Imagine losing everything you love in a single night…',
    ],
  ];
  for (const [name, sentences, hook, expected] of cases) {
    test(name, () => assert.equal(title(sentences, hook), expected));
  }
});
