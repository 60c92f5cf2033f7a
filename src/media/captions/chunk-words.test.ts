import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WordTiming } from '../types.ts';
import type { CaptionChunking } from './caption-style.ts';
import { chunkWords, isLongPause } from './chunk-words.ts';

/** Words spoken back to back, 0.3 s each with 0.1 s gaps, unless a start is given as `word@start`. */
function words(text: string): WordTiming[] {
  let t = 0;
  return text.split(' ').map((token) => {
    const [word = '', at] = token.split('@');
    if (at !== undefined) t = Number(at);
    const w = { word, start: t, end: t + 0.3 };
    t += 0.4;
    return w;
  });
}

function texts(chunks: WordTiming[][]): string[] {
  return chunks.map((c) => c.map((w) => w.word).join(' '));
}

const three: CaptionChunking = { maxWords: 3, maxChars: 20, maxPauseSec: 0.6, breakOnClause: false };
const six: CaptionChunking = { maxWords: 6, maxChars: 30, maxPauseSec: 0.6, breakOnClause: true };

describe('chunkWords', () => {
  const cases: [string, string, CaptionChunking, string[]][] = [
    ['fills up to maxWords', 'one two three four five', three, ['one two three', 'four five']],
    ['breaks at sentence ends', 'Go. Now we run! Why? ok', three, ['Go.', 'Now we run!', 'Why?', 'ok']],
    [
      'sentence end behind a closing quote',
      'he said "stop." then left',
      three,
      ['he said "stop."', 'then left'],
    ],
    ['breaks before a long pause', 'one two three@1.4 four', three, ['one two', 'three four']],
    ['keeps a short pause', 'one two three@1.3 four', three, ['one two three', 'four']],
    ['maxChars', 'extraordinary wonderful day', three, ['extraordinary', 'wonderful day']],
    [
      'a word longer than maxChars stands alone',
      'a incomprehensibilities b',
      three,
      ['a', 'incomprehensibilities', 'b'],
    ],
    ['clause breaks when asked', 'first, second part; third', six, ['first,', 'second part;', 'third']],
    ['no clause breaks otherwise', 'first, second', three, ['first, second']],
    ['drops empty words', 'one  two', three, ['one two']],
  ];
  for (const [name, text, chunking, expected] of cases) {
    test(name, () => assert.deepEqual(texts(chunkWords(words(text), chunking)), expected));
  }

  test('trims words and keeps their timing', () => {
    const chunks = chunkWords([{ word: ' hi ', start: 1, end: 1.2, confidence: 0.9 }], three);
    assert.deepEqual(chunks, [[{ word: 'hi', start: 1, end: 1.2, confidence: 0.9 }]]);
  });
});

describe('isLongPause', () => {
  const cases: [number, number, boolean][] = [
    [1.3 - 0.7, 0.6, false],
    [0.601, 0.6, true],
    [0.6004, 0.6, false],
    [2, 0.6, true],
    [-0.1, 0.6, false],
  ];
  for (const [gap, max, expected] of cases) {
    test(`${gap} vs ${max}`, () => assert.equal(isLongPause(gap, max), expected));
  }
});
