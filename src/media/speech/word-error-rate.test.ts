import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeWords, wordErrorRate, wordErrors } from './word-error-rate.ts';

describe('normalizeWords', () => {
  const cases: [string, string[]][] = [
    ['Hello, World!', ['hello', 'world']],
    ["Don\u2019t 'quote' me", ["don't", 'quote', 'me']],
    ['  ', []],
  ];
  for (const [text, words] of cases)
    test(JSON.stringify(text), () => assert.deepEqual(normalizeWords(text), words));
});

describe('wordErrors', () => {
  const cases: {
    ref: string;
    hyp: string;
    s: number;
    d: number;
    i: number;
    wer: number;
    matches: [number, number][];
  }[] = [
    {
      ref: 'a b c',
      hyp: 'a b c',
      s: 0,
      d: 0,
      i: 0,
      wer: 0,
      matches: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    },
    {
      ref: 'a b c',
      hyp: 'a x c',
      s: 1,
      d: 0,
      i: 0,
      wer: 1 / 3,
      matches: [
        [0, 0],
        [2, 2],
      ],
    },
    {
      ref: 'a b c',
      hyp: 'a c',
      s: 0,
      d: 1,
      i: 0,
      wer: 1 / 3,
      matches: [
        [0, 0],
        [2, 1],
      ],
    },
    {
      ref: 'a b',
      hyp: 'x a b y',
      s: 0,
      d: 0,
      i: 2,
      wer: 1,
      matches: [
        [0, 1],
        [1, 2],
      ],
    },
    {
      ref: 'he was not an ill disposed young man',
      hyp: 'he was not an illness those young man',
      s: 2,
      d: 0,
      i: 0,
      wer: 0.25,
      matches: [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
        [6, 6],
        [7, 7],
      ],
    },
    { ref: '', hyp: '', s: 0, d: 0, i: 0, wer: 0, matches: [] },
    { ref: '', hyp: 'noise', s: 0, d: 0, i: 1, wer: 1, matches: [] },
  ];
  for (const c of cases) {
    test(`${JSON.stringify(c.ref)} vs ${JSON.stringify(c.hyp)}`, () => {
      const errors = wordErrors(normalizeWords(c.ref), normalizeWords(c.hyp));
      assert.deepEqual(
        [errors.substitutions, errors.deletions, errors.insertions, errors.matches],
        [c.s, c.d, c.i, c.matches],
      );
      assert.equal(wordErrorRate(errors), c.wer);
    });
  }
});
