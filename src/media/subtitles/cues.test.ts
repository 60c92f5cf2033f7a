import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WordTiming } from '../types.ts';
import { breakLines, buildCues, type Cue, type CueOptions } from './cues.ts';

/** Words spoken back to back from `start`, each lasting `each` seconds. */
function spoken(text: string, start = 0, each = 0.3): WordTiming[] {
  return text.split(' ').map((word, i) => ({ word, start: start + i * each, end: start + (i + 1) * each }));
}

describe('breakLines', () => {
  const cases: { name: string; words: string; width: number; maxLines: number; expected: string[] }[] = [
    {
      name: 'short text stays on one line',
      words: 'Hello world.',
      width: 42,
      maxLines: 2,
      expected: ['Hello world.'],
    },
    {
      name: 'two lines are balanced rather than filled greedily',
      words: 'The quick brown fox jumps over the lazy dog while the farmer sleeps',
      width: 42,
      maxLines: 2,
      expected: ['The quick brown fox jumps over the', 'lazy dog while the farmer sleeps'],
    },
    {
      name: 'breaks after a comma when that is nearly balanced',
      words: 'When the rain finally stopped, we walked down to the harbour',
      width: 42,
      maxLines: 2,
      expected: ['When the rain finally stopped,', 'we walked down to the harbour'],
    },
    {
      name: 'a word longer than a line is never split',
      words: 'Supercalifragilisticexpialidociouslyextraordinary',
      width: 20,
      maxLines: 2,
      expected: ['Supercalifragilisticexpialidociouslyextraordinary'],
    },
    {
      name: 'three lines when allowed',
      words: 'one two three four five six seven eight nine ten eleven twelve',
      width: 24,
      maxLines: 3,
      expected: ['one two three four', 'five six seven eight', 'nine ten eleven twelve'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const lines = breakLines(c.words.split(' '), c.width, c.maxLines);
      assert.deepEqual(lines, c.expected);
      assert.equal(lines.join(' '), c.words);
    });
  }
});

describe('buildCues', () => {
  const cases: { name: string; words: WordTiming[]; opts?: CueOptions; expected: Cue[] }[] = [
    {
      name: 'one short sentence is one cue spanning its words',
      words: spoken('Hello there world.', 1, 0.4),
      expected: [{ start: 1, end: 2.2, lines: ['Hello there world.'] }],
    },
    {
      name: 'a cue shorter than minCueSec is held until the next cue starts',
      words: [
        { word: 'Yes.', start: 0, end: 0.2 },
        { word: 'Then', start: 1.5, end: 1.8 },
        { word: 'we', start: 1.8, end: 2 },
        { word: 'left.', start: 2, end: 2.2 },
      ],
      expected: [
        { start: 0, end: 0.7, lines: ['Yes.'] },
        { start: 1.5, end: 2.2, lines: ['Then we left.'] },
      ],
    },
    {
      name: 'extending a short cue stops at the next cue',
      words: [
        { word: 'No', start: 0, end: 0.2 },
        { word: 'way', start: 1.3, end: 1.5 },
      ],
      opts: { pauseSec: 1, minCueSec: 2 },
      expected: [
        { start: 0, end: 1.3, lines: ['No'] },
        { start: 1.3, end: 3.3, lines: ['way'] },
      ],
    },
    {
      name: 'a long pause starts a new cue',
      words: [
        { word: 'First', start: 0, end: 0.4 },
        { word: 'part', start: 0.4, end: 0.8 },
        { word: 'second', start: 2.5, end: 3 },
        { word: 'part', start: 3, end: 3.4 },
      ],
      expected: [
        { start: 0, end: 0.8, lines: ['First part'] },
        { start: 2.5, end: 3.4, lines: ['second part'] },
      ],
    },
    {
      name: 'maxCueSec splits slow speech',
      words: spoken('one two three four five six seven eight', 0, 1),
      opts: { maxCueSec: 3 },
      expected: [
        { start: 0, end: 3, lines: ['one two three'] },
        { start: 3, end: 6, lines: ['four five six'] },
        { start: 6, end: 8, lines: ['seven eight'] },
      ],
    },
    {
      name: 'a full cue is cut after the sentence end inside it',
      words: spoken(
        'We packed the car before sunrise and drove north. By noon the road had turned to gravel and dust',
        0,
        0.2,
      ),
      expected: [
        { start: 0, end: 1.8, lines: ['We packed the car before', 'sunrise and drove north.'] },
        { start: 1.8, end: 3.8, lines: ['By noon the road had', 'turned to gravel and dust'] },
      ],
    },
    {
      name: 'a lone word left over by the duration limit is rebalanced with the cue before it',
      words: [...spoken('It was late when we got home', 0, 0.3), { word: 'again', start: 2.2, end: 2.5 }],
      opts: { maxCueSec: 2.2 },
      expected: [
        { start: 0, end: 1.2, lines: ['It was late when'] },
        { start: 1.2, end: 2.5, lines: ['we got home again'] },
      ],
    },
    {
      name: 'a short word left over by the line limit is rebalanced with the cue before it',
      words: spoken('Please call me back soon ok', 0, 0.3),
      opts: { maxCharsPerLine: 24, maxLines: 1 },
      expected: [
        { start: 0, end: 0.9, lines: ['Please call me'] },
        { start: 0.9, end: 1.8, lines: ['back soon ok'] },
      ],
    },
    {
      name: 'a leftover word after a sentence end is not pulled across the sentence',
      words: spoken('It rained all day. Yes', 0, 0.3),
      opts: { maxCharsPerLine: 18, maxLines: 1 },
      expected: [
        { start: 0, end: 1.2, lines: ['It rained all day.'] },
        { start: 1.2, end: 1.9, lines: ['Yes'] },
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const cues = buildCues(c.words, c.opts);
      assert.deepEqual(
        cues.map((cue) => ({ ...cue, start: round(cue.start), end: round(cue.end) })),
        c.expected,
      );
    });
  }

  test('every word appears once, in order, and cues never overlap', () => {
    const words = spoken(
      'Rivers carve valleys over millions of years, and the valleys in turn shape where towns grow. ' +
        'Roads follow the rivers, markets follow the roads, and people follow the markets.',
      0,
      0.27,
    );
    const cues = buildCues(words);
    assert.deepEqual(
      cues.flatMap((cue) => cue.lines.join(' ').split(' ')),
      words.map((w) => w.word),
    );
    for (const [i, cue] of cues.entries()) {
      assert.ok(cue.lines.length <= 2 && cue.lines.every((line) => line.length <= 42), JSON.stringify(cue));
      assert.ok(cue.end - cue.start <= 6 + 1e-9);
      if (i > 0) assert.ok(cue.start >= cues[i - 1]!.end);
    }
  });
});

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
