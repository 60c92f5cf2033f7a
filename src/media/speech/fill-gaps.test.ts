import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fillGaps, type MaybePlaced } from './fill-gaps.ts';

describe('fillGaps', () => {
  const cases: {
    name: string;
    words: MaybePlaced[];
    span: [number, number];
    expected: [string, number, number][];
  }[] = [
    {
      name: 'placed words are kept',
      words: [
        { word: 'a', start: 0.1, end: 0.2 },
        { word: 'b', start: 0.3, end: 0.5 },
      ],
      span: [0, 1],
      expected: [
        ['a', 0.1, 0.2],
        ['b', 0.3, 0.5],
      ],
    },
    {
      name: 'an unplaced word fills the gap between its neighbours',
      words: [{ word: 'a', start: 0, end: 1 }, { word: 'bb' }, { word: 'c', start: 2, end: 3 }],
      span: [0, 3],
      expected: [
        ['a', 0, 1],
        ['bb', 1, 2],
        ['c', 2, 3],
      ],
    },
    {
      name: 'a run shares the gap in proportion to word length',
      words: [
        { word: 'a', start: 0, end: 1 },
        { word: 'x' },
        { word: 'yyy' },
        { word: 'c', start: 3, end: 4 },
      ],
      span: [0, 4],
      expected: [
        ['a', 0, 1],
        ['x', 1, 1.5],
        ['yyy', 1.5, 3],
        ['c', 3, 4],
      ],
    },
    {
      name: 'leading and trailing runs use the span edges',
      words: [{ word: 'one' }, { word: 'b', start: 1, end: 2 }, { word: 'two' }],
      span: [0.4, 2.6],
      expected: [
        ['one', 0.4, 1],
        ['b', 1, 2],
        ['two', 2, 2.6],
      ],
    },
    {
      name: 'nothing placed spreads all words over the span',
      words: [{ word: 'ab' }, { word: 'ab' }],
      span: [0, 1],
      expected: [
        ['ab', 0, 0.5],
        ['ab', 0.5, 1],
      ],
    },
    { name: 'no words', words: [], span: [0, 1], expected: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const result = fillGaps(c.words, c.span[0], c.span[1]).map((w) => [w.word, w.start, w.end]);
      assert.deepEqual(result, c.expected);
    });
  }
});
