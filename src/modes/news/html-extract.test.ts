import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeEntities } from './html-text.ts';
import { extractArticle, isArticleText, parseHtml, textOf } from './html-extract.ts';

const NEWS_PAGE = `<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>Harbour city opens floating solar farm | Coastal Courier</title>
  <meta property="og:site_name" content="Coastal Courier">
  <script>window.dataLayer = [{ page: "article" }]; if (a < b) { track("view"); }</script>
  <style>.hero { color: red; } p { margin: 0 }</style>
</head>
<body class="page has-sidebar">
  <header class="site-header"><a href="/">Coastal Courier</a><nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
  <div id="cookie-banner"><p>We use cookies to improve your experience. Accept all cookies to continue reading.</p><button>Accept</button></div>
  <main>
    <article>
      <h1>Harbour city opens floating solar farm</h1>
      <p class="byline">By Dana Reyes · 4 March</p>
      <figure><img src="farm.jpg" alt="Panels"><figcaption>The panels float on the old dock basin.</figcaption></figure>
      <p>The city of Porthaven switched on a floating solar farm on Tuesday, covering the disused dock basin with
      twelve thousand panels.</p>
      <p>Engineers say the water keeps the panels cool, which lifts their output by up to a tenth on hot days.
      The farm will supply about four thousand homes.</p>
      <div class="share-tools"><a href="#">Share on social media</a> <a href="#">Email this article to a friend</a></div>
      <p>Residents had worried about the view from the promenade, but the council says the low frames sit below the sea wall.
      <p>Work on a second basin starts next spring &mdash; if the first year goes to plan.</p>
      <ul><li>Related: <a href="/a">Tidal power plan stalls</a></li></ul>
      <table><tr><td>Capacity</td><td>6 MW</td></tr></table>
      <pre>debug output should never be read aloud here at all.</pre>
    </article>
  </main>
  <aside><p>Most read: ten things to do in Porthaven this weekend with the whole family.</p></aside>
  <footer><p>Copyright 2025 Coastal Courier. All rights reserved by the publisher and its partners.</p></footer>
</body>
</html>`;

void describe('extractArticle', () => {
  void test('a news page: article paragraphs only, in order, with title, site and language', () => {
    const a = extractArticle(NEWS_PAGE);
    assert.equal(a.title, 'Harbour city opens floating solar farm');
    assert.equal(a.siteName, 'Coastal Courier');
    assert.equal(a.language, 'en');
    assert.deepEqual(a.paragraphs, [
      'The city of Porthaven switched on a floating solar farm on Tuesday, covering the disused dock basin with twelve thousand panels.',
      'Engineers say the water keeps the panels cool, which lifts their output by up to a tenth on hot days. The farm will supply about four thousand homes.',
      'Residents had worried about the view from the promenade, but the council says the low frames sit below the sea wall.',
      'Work on a second basin starts next spring \u2014 if the first year goes to plan.',
    ]);
  });

  void test('without <article> or <main>, the element holding the most paragraph text wins', () => {
    const html = `<html><body>
      <div class="top"><p>Short teaser about a different story entirely, nothing more.</p></div>
      <div class="content">
        <p>The first paragraph of the real story explains what happened this morning in town.</p>
        <p>The second paragraph adds the reaction from people who live on the affected street.</p>
        <p>The third paragraph says what happens next and when the next update is expected.</p>
      </div></body></html>`;
    assert.deepEqual(extractArticle(html).paragraphs, [
      'The first paragraph of the real story explains what happened this morning in town.',
      'The second paragraph adds the reaction from people who live on the affected street.',
      'The third paragraph says what happens next and when the next update is expected.',
    ]);
  });

  void test('og:title wins over <h1> and <title>; a page with no title has none', () => {
    const withOg =
      '<html><head><meta property="og:title" content="Rates held at 4%"><title>Other | Site</title></head><body><h1>Headline</h1></body></html>';
    assert.equal(extractArticle(withOg).title, 'Rates held at 4%');
    assert.equal(
      extractArticle('<p>Only a paragraph that is long enough to count as text.</p>').title,
      undefined,
    );
  });

  void test('div-only pages, hidden and aria-hidden blocks, link lists', () => {
    const html = `<body><div id="story">
      <div>Storm warnings were issued for the northern coast as winds picked up overnight.</div>
      <div hidden>Hidden text that the reader never sees on the page at all.</div>
      <div aria-hidden="true">Screen readers skip this decorative sentence entirely too.</div>
      <div><a href="/1">Weather</a> <a href="/2">Storm tracker live map</a> <a href="/3">Warnings</a></div>
      <div>Ferries were cancelled until Thursday, the port authority said.</div>
    </div></body>`;
    assert.deepEqual(extractArticle(html).paragraphs, [
      'Storm warnings were issued for the northern coast as winds picked up overnight.',
      'Ferries were cancelled until Thursday, the port authority said.',
    ]);
  });
});

void describe('parseHtml', () => {
  void test('unclosed <p> and <li> close at the next sibling; stray end tags are ignored', () => {
    const root = parseHtml('<div><p>One<p>Two</span><ul><li>A<li>B</ul></div>');
    const div = root.children[0] as { children: unknown[] };
    assert.equal(div.children.length, 3);
    assert.equal(textOf(root).replace(/\s+/g, ' ').trim(), 'One Two A B');
  });

  void test('script content is not parsed as markup', () => {
    const root = parseHtml('<p>Before</p><script>if (a<b && "</p>") {}</script><p>After</p>');
    assert.equal(textOf(root).replace(/\s+/g, ' ').trim(), 'Before After');
  });
});

void describe('isArticleText', () => {
  const cases: [string, string, boolean][] = [
    ['By Dana Reyes, 4 March', '', false],
    ['Read more about the harbour plan here.', 'Read more about the harbour plan here.', false],
    ['The council approved the plan on Monday.', '', true],
    ['A long fragment without a full stop but with plenty of words to be a real paragraph', '', true],
    ['Six words but no final stop', '', false],
  ];
  for (const [text, links, expected] of cases)
    void test(text, () => assert.equal(isArticleText(text, links), expected));
});

void describe('decodeEntities', () => {
  const cases: [string, string][] = [
    ['Fish &amp; chips', 'Fish & chips'],
    ['&#8220;Quoted&#8221;', '\u201cQuoted\u201d'],
    ['&#x2014; dash', '\u2014 dash'],
    ['&unknown; stays', '&unknown; stays'],
    ['&#0; invalid', '&#0; invalid'],
  ];
  for (const [input, expected] of cases)
    void test(input, () => assert.equal(decodeEntities(input), expected));
});
