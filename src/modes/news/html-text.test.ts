import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDocument, textBlocks, tidySpacing } from './html-text.ts';

const blocksOf = (html: string) => textBlocks(parseDocument(html).body);
const textsOf = (html: string) => blocksOf(html).map((b) => b.text);

void describe('textBlocks', () => {
  void test('one block per paragraph, list item and heading, in order; inline markup joins its sentence', () => {
    const blocks = blocksOf(
      '<h2>Why it <em>matters</em></h2><p>Fish &amp; chips cost &pound;5 &mdash; <b>a bargain</b>.</p><ul><li>One<li>Two</ul>',
    );
    assert.deepEqual(blocks, [
      { text: 'Why it matters', linkText: '', timeText: '', heading: true },
      { text: 'Fish & chips cost £5 — a bargain.', linkText: '', timeText: '', heading: false },
      { text: 'One', linkText: '', timeText: '', heading: false },
      { text: 'Two', linkText: '', timeText: '', heading: false },
    ]);
  });

  void test('text directly in a container is a block of its own beside the container’s paragraphs', () => {
    assert.deepEqual(textsOf('<div>Lead text<p>Inner paragraph.</p>Tail text</div>'), [
      'Lead text',
      'Inner paragraph.',
      'Tail text',
    ]);
  });

  void test('code, tables, figures, media, forms and struck-through text are not said; a removed image leaves the sentence whole', () => {
    const html = `<p>Before <img src="a.png" alt="chart"> after <del>never</del>.</p>
      <pre>const x = 1;</pre><table><tr><td>Cell</td></tr></table>
      <figure><img src="b.png"><figcaption>A caption</figcaption></figure>
      <form><label>Email</label><input><button>Go</button></form><script>track()</script><p>End.</p>`;
    assert.deepEqual(textsOf(html), ['Before after.', 'End.']);
  });

  void test('a link whose text is a bare address is dropped; other links keep their text and count as link text', () => {
    const [block] = blocksOf(
      '<p>See <a href="/r">the report</a> at <a href="https://x.example/r">https://x.example/r</a>, or www.example.org.</p>',
    );
    assert.equal(block?.text, 'See the report at, or www.example.org.');
    assert.equal(block?.linkText, 'the report');
  });

  void test('<br> separates words; hidden elements are skipped; <time> text is reported', () => {
    const [block] = blocksOf(
      '<p>Line one<br>line two <span hidden>secret</span><span aria-hidden="true">icon</span> on <time>4 March</time>.</p>',
    );
    assert.equal(block?.text, 'Line one line two on 4 March.');
    assert.equal(block?.timeText, '4 March');
  });
});

void describe('tidySpacing', () => {
  const cases: [string, string][] = [
    ['Source: , retrieved today .', 'Source: retrieved today.'],
    ['A chart ( ) shows it', 'A chart shows it'],
    ['  spaced \n out\u00a0 text ', 'spaced out text'],
  ];
  for (const [input, expected] of cases) void test(input, () => assert.equal(tidySpacing(input), expected));
});
