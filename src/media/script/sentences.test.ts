import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitSentences } from './sentences.ts';

const cases: Array<[string, string[]]> = [
  ['One. Two! Three?', ['One.', 'Two!', 'Three?']],
  ['Use a tool, e.g. a planner. Then start.', ['Use a tool, e.g. a planner.', 'Then start.']],
  ['That is, i.e. the basics. Next.', ['That is, i.e. the basics.', 'Next.']],
  ['Dr. Lee and Mr. Park agree. Sleep matters.', ['Dr. Lee and Mr. Park agree.', 'Sleep matters.']],
  ['Rates rose 3.5 percent. Savers noticed.', ['Rates rose 3.5 percent.', 'Savers noticed.']],
  ['It costs $4.99 a month.', ['It costs $4.99 a month.']],
  ['Visit example.com today. It is free.', ['Visit example.com today.', 'It is free.']],
  ['Learn more at www.taskly.app/pricing.', ['Learn more at www.taskly.app/pricing.']],
  ['Go to https://example.com/a.b?c=1 now. Done.', ['Go to https://example.com/a.b?c=1 now.', 'Done.']],
  ['Meet J. K. Rowling. She writes.', ['Meet J. K. Rowling.', 'She writes.']],
  ['Apples, pears, etc. Then more.', ['Apples, pears, etc.', 'Then more.']],
  [
    'Open at 9 a.m. sharp. Close at 5 p.m. Then rest.',
    ['Open at 9 a.m. sharp.', 'Close at 5 p.m.', 'Then rest.'],
  ],
  ['Wait... what? Really?!', ['Wait... what?', 'Really?!']],
  ['She said "Go now." Then she left.', ['She said "Go now."', 'Then she left.']],
  ['First line\nSecond line.', ['First line', 'Second line.']],
  ['\n\n', []],
];

for (const [input, expected] of cases) {
  test(`splits ${JSON.stringify(input)}`, () => assert.deepEqual(splitSentences(input), expected));
}
