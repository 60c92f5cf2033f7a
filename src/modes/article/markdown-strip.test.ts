import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stripMarkdown, withStop } from './markdown-strip.ts';

void describe('stripMarkdown: inline markup', () => {
  const cases: [string, string, string][] = [
    [
      'strong and emphasis',
      'This is **bold**, *italic*, __strong__ and _soft_.',
      'This is bold, italic, strong and soft.',
    ],
    ['nested emphasis', 'A ***very*** big deal.', 'A very big deal.'],
    ['struck-through text is deleted text', 'We ~~never~~ always ship.', 'We always ship.'],
    ['snake_case words are not emphasis', 'Set max_retry_count to three.', 'Set max_retry_count to three.'],
    ['arithmetic asterisks stay', 'Two * three is six.', 'Two * three is six.'],
    [
      'inline link keeps its text',
      'Read [our guide](https://example.com/guide "Guide") first.',
      'Read our guide first.',
    ],
    [
      'link with parentheses in its target',
      'See [the page](https://en.example.org/wiki/Foo_(bar)) now.',
      'See the page now.',
    ],
    ['reference link', 'Read [the report][1] today.', 'Read the report today.'],
    ['image removed', 'Before ![a chart](chart.png) after.', 'Before after.'],
    ['reference image removed', 'Look ![diagram][fig] here.', 'Look here.'],
    ['autolink removed', 'Visit <https://example.com> for more.', 'Visit for more.'],
    ['bare url removed', 'Source: https://example.com/a?b=c, retrieved today.', 'Source: retrieved today.'],
    ['punctuation after a url stays', 'Details at https://example.com/report.', 'Details at.'],
    ['inline code keeps its text', 'Run `npm test` before pushing.', 'Run npm test before pushing.'],
    [
      'html tags stripped',
      'Hello <b>world</b><br/>again <span class="x">now</span>.',
      'Hello world again now.',
    ],
    [
      'entities decoded',
      'Fish &amp; chips cost &pound;5 &mdash; a bargain.',
      'Fish & chips cost £5 \u2014 a bargain.',
    ],
    ['escaped markup is literal', 'Use \\*stars\\* and \\_underscores\\_.', 'Use *stars* and _underscores_.'],
    ['footnote reference removed', 'Sales rose 40%[^1] last year.', 'Sales rose 40% last year.'],
  ];
  for (const [name, input, expected] of cases) {
    void test(name, () => assert.deepEqual(stripMarkdown(input), [expected]));
  }
});

void describe('withStop', () => {
  const cases: [string, string][] = [
    ['Why it matters', 'Why it matters.'],
    ['Is this real?', 'Is this real?'],
    ['Three steps:', 'Three steps:'],
    ['He said "go."', 'He said "go."'],
  ];
  for (const [input, expected] of cases) void test(input, () => assert.equal(withStop(input), expected));
});

void describe('stripMarkdown', () => {
  const cases: [string, string, string[]][] = [
    [
      'atx headings become sentences',
      '# The Big Idea\n\nIt starts small.\n\n## Why ##\nBecause.',
      ['The Big Idea.', 'It starts small.', 'Why.', 'Because.'],
    ],
    [
      'setext headings',
      'Launch Day\n==========\n\nWe shipped.\n\nNext Steps\n----------\nMore soon.',
      ['Launch Day.', 'We shipped.', 'Next Steps.', 'More soon.'],
    ],
    [
      'paragraph lines join',
      'One line\ncontinues here.\n\nSecond paragraph.',
      ['One line continues here.', 'Second paragraph.'],
    ],
    [
      'lists: bullets, numbers, tasks, continuation',
      'Steps:\n\n- Buy flour\n* Mix **well**\n+ Bake\n  for an hour\n1. Cool it\n2) Serve\n- [x] Done already',
      ['Steps:', 'Buy flour.', 'Mix well.', 'Bake for an hour.', 'Cool it.', 'Serve.', 'Done already.'],
    ],
    ['fenced code removed', 'Before.\n\n```js\nconst x = 1;\n```\n\nAfter.', ['Before.', 'After.']],
    [
      'tilde fence and unclosed fence',
      'Intro.\n~~~\ncode\n~~~\nMiddle.\n```\nnever closed\nstill code',
      ['Intro.', 'Middle.'],
    ],
    [
      'blockquotes unwrapped',
      '> Quoted wisdom\n> goes on.\n\n> - quoted item',
      ['Quoted wisdom goes on.', 'quoted item.'],
    ],
    ['images only paragraph dropped', '![hero](hero.jpg)\n\nText.', ['Text.']],
    [
      'tables dropped',
      'Prices:\n\n| Plan | Price |\n|------|------:|\n| Pro | $9 |\n\nThat is all.',
      ['Prices:', 'That is all.'],
    ],
    [
      'thematic breaks and reference definitions dropped',
      'Part one.\n\n---\n\n[1]: https://example.com\n[^1]: A note.\n\nPart two.',
      ['Part one.', 'Part two.'],
    ],
    ['front matter dropped', '---\ntitle: Hello\ntags: [a]\n---\n# Hello\n\nBody.', ['Hello.', 'Body.']],
    [
      'html blocks and comments',
      '<div class="note">\n<p>Kept text.</p>\n</div>\n<!-- hidden -->\n<script>alert(1)</script>\n<pre>code</pre>\nEnd.',
      ['Kept text.', 'End.'],
    ],
    [
      'plain text passes through',
      'Just a plain sentence. And another one!',
      ['Just a plain sentence. And another one!'],
    ],
    ['windows line endings', '# Title\r\n\r\nBody text.\r\n', ['Title.', 'Body text.']],
    [
      'nested and loose lists: each item its own block',
      '- Outer item\n  - Inner item\n\n- Loose item\n\n  Second paragraph of it',
      ['Outer item.', 'Inner item.', 'Loose item.', 'Second paragraph of it.'],
    ],
    ['dangling reference image and link', 'See ![chart][c] and [the data][d].', ['See and the data.']],
    ['footnote definition dropped', 'Claim.[^1]\n\n[^1]: Source: a study.', ['Claim.']],
    [
      'nesting thousands deep is read as plain text',
      `${'> '.repeat(3000)}Deep quote.\n\nNext.`,
      [`${'> '.repeat(3000)}Deep quote.`.replace(/\s+/g, ' '), 'Next.'],
    ],
  ];
  for (const [name, input, expected] of cases) {
    void test(name, () => assert.deepEqual(stripMarkdown(input), expected));
  }
});
