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
  [
    'It rained\u2026 Then it stopped. Prices rose 2.5% in Q3.',
    ['It rained\u2026', 'Then it stopped.', 'Prices rose 2.5% in Q3.'],
  ],
  [
    'Ask Gov. Reyes, Sen. Park and Prof. Lee. They know.',
    ['Ask Gov. Reyes, Sen. Park and Prof. Lee.', 'They know.'],
  ],
  ['He said: \u201cWe won.\u201d Fans cheered!', ['He said: \u201cWe won.\u201d', 'Fans cheered!']],
];

for (const [input, expected] of cases) {
  test(`splits ${JSON.stringify(input)}`, () => assert.deepEqual(splitSentences(input), expected));
}

const inLanguage: Array<[string, string, string[]]> = [
  [
    'ja',
    '\u4eca\u65e5\u306f\u6674\u308c\u3002\u660e\u65e5\u306f\u96e8\u3067\u3059\u3002',
    ['\u4eca\u65e5\u306f\u6674\u308c\u3002', '\u660e\u65e5\u306f\u96e8\u3067\u3059\u3002'],
  ],
  [
    'zh',
    '\u6211\u4eec\u5230\u4e86\uff01\u4f60\u5728\u54ea\u91cc\uff1f',
    ['\u6211\u4eec\u5230\u4e86\uff01', '\u4f60\u5728\u54ea\u91cc\uff1f'],
  ],
  [
    'es',
    '\u00bfVienes ma\u00f1ana? S\u00ed, a las 9.30 h.',
    ['\u00bfVienes ma\u00f1ana?', 'S\u00ed, a las 9.30 h.'],
  ],
  [
    'de',
    'Der Zug f\u00e4hrt um 9.30 Uhr ab. Er ist p\u00fcnktlich.',
    ['Der Zug f\u00e4hrt um 9.30 Uhr ab.', 'Er ist p\u00fcnktlich.'],
  ],
  ['not a language tag!', 'One. Two.', ['One.', 'Two.']],
];

for (const [language, input, expected] of inLanguage) {
  test(`splits ${JSON.stringify(input)} in ${JSON.stringify(language)}`, () =>
    assert.deepEqual(splitSentences(input, language), expected));
}
