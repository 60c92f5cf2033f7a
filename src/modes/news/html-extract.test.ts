import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  extractArticle,
  isArticleText,
  MAX_PAGE_DEPTH,
  MAX_PAGE_ELEMENTS,
  PageTooComplexError,
} from './html-extract.ts';

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
  void test('a news page: article paragraphs only, in order, with title, byline, site and language', () => {
    const a = extractArticle(NEWS_PAGE);
    assert.equal(a.title, 'Harbour city opens floating solar farm');
    assert.equal(a.siteName, 'Coastal Courier');
    assert.match(a.byline ?? '', /Dana Reyes/);
    assert.equal(a.language, 'en');
    assert.deepEqual(a.paragraphs, [
      'The city of Porthaven switched on a floating solar farm on Tuesday, covering the disused dock basin with twelve thousand panels.',
      'Engineers say the water keeps the panels cool, which lifts their output by up to a tenth on hot days. The farm will supply about four thousand homes.',
      'Residents had worried about the view from the promenade, but the council says the low frames sit below the sea wall.',
      'Work on a second basin starts next spring \u2014 if the first year goes to plan.',
    ]);
  });

  void test('JSON-LD gives the headline, author, publisher and publication time', () => {
    const html = `<html lang="fr"><head><title>Autre titre</title>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Le port rouvre","datePublished":"2025-05-02T08:00:00+02:00","author":{"@type":"Person","name":"Ana Lima"},"publisher":{"@type":"Organization","name":"Le Phare"}}</script>
      </head><body><article><p>Le port a rouvert ce matin apr\u00e8s trois jours de temp\u00eate sur toute la c\u00f4te.</p></article></body></html>`;
    const a = extractArticle(html);
    assert.equal(a.title, 'Le port rouvre');
    assert.equal(a.byline, 'Ana Lima');
    assert.equal(a.siteName, 'Le Phare');
    assert.equal(Date.parse(a.publishedTime ?? ''), Date.parse('2025-05-02T06:00:00Z'));
    assert.equal(a.language, 'fr');
  });

  void test('a title carrying the site name loses it; an unreadable publication time is left out', () => {
    const html = `<html><head><meta property="og:title" content="Bridge approved | Town Gazette">
      <meta property="og:site_name" content="Town Gazette"><meta property="article:published_time" content="last Tuesday">
      </head><body><p>The council approved the new footbridge over the creek on Monday night.</p></body></html>`;
    const a = extractArticle(html);
    assert.equal(a.title, 'Bridge approved');
    assert.equal(a.publishedTime, undefined);
  });

  void test('a fragment without <html> or <body> is read; a page with no text has no paragraphs', () => {
    assert.deepEqual(
      extractArticle('<p>Only a paragraph that is long enough to count as text.</p>').paragraphs,
      ['Only a paragraph that is long enough to count as text.'],
    );
    assert.deepEqual(
      extractArticle('<html><head><title>Empty</title></head><body></body></html>').paragraphs,
      [],
    );
    assert.deepEqual(extractArticle('').paragraphs, []);
  });

  void test('hidden blocks, link lists, captions in plain paragraphs, sign-up boxes and contact lines are not text', () => {
    const html = `<body><div id="story">
      <div>Storm warnings were issued for the northern coast as winds picked up overnight.</div>
      <div hidden>Hidden text that the reader never sees on the page at all.</div>
      <div aria-hidden="true">Screen readers skip this decorative sentence entirely too.</div>
      <div><a href="/1">Weather</a> <a href="/2">Storm tracker live map</a> <a href="/3">Warnings</a></div>
      <p class="photo-caption">Waves break over the harbour wall at high tide on Monday evening.</p>
      <div class="promo"><p>Get our morning briefing delivered to your inbox every weekday.</p><input type="email"></div>
      <p>Do you have photos of the storm? Send them to pictures@paper.example today.</p>
      <div>Ferries were cancelled until Thursday, the port authority said.</div>
    </div></body>`;
    assert.deepEqual(extractArticle(html).paragraphs, [
      'Storm warnings were issued for the northern coast as winds picked up overnight.',
      'Ferries were cancelled until Thursday, the port authority said.',
    ]);
  });
});

void describe('pages too complex to read', () => {
  const paragraph = '<p>A paragraph that is long enough to be read as the article text.</p>';

  void test('nesting past the bound is refused before parsing, however deep and however written', () => {
    for (const depth of [MAX_PAGE_DEPTH + 1, 400_000]) {
      const html = `<html><body>${'<div>'.repeat(depth)}${paragraph}${'</div>'.repeat(depth)}</body></html>`;
      assert.throws(() => extractArticle(html), PageTooComplexError);
    }
    // "/>" does not close an HTML element, so these nest as deep as the ones above.
    assert.throws(() => extractArticle(`<body>${'<div/>'.repeat(400_000)}</body>`), PageTooComplexError);
    const html = `<html><body>${'<div>'.repeat(MAX_PAGE_DEPTH - 3)}${paragraph}${'</div>'.repeat(MAX_PAGE_DEPTH - 3)}</body></html>`;
    assert.equal(extractArticle(html).paragraphs.length, 1);
  });

  void test('elements with optional end tags, void elements, drawings and script text do not count as nesting', () => {
    const many = MAX_PAGE_DEPTH * 2;
    const html = `<html><head><script>for (let i = 0; i<n; i++) { if (a<b) x(); }${'<div>'.repeat(many)}</script></head>
      <body><ul>${'<li>item'.repeat(many)}</ul>${'<p>para<br>'.repeat(many)}<svg>${'<path d="M0 0"/>'.repeat(many)}</svg>${paragraph}</body></html>`;
    assert.ok(extractArticle(html).paragraphs.includes(paragraph.slice(3, -4)));
  });

  void test('more elements than the bound are refused', () => {
    const html = `<html><body>${paragraph}${'<i>x</i>'.repeat(MAX_PAGE_ELEMENTS)}</body></html>`;
    assert.throws(() => extractArticle(html), PageTooComplexError);
  });
});

void describe('isArticleText', () => {
  const cases: [string, Partial<{ linkText: string; timeText: string }>, boolean][] = [
    ['By Dana Reyes, 4 March', {}, false],
    ['Read more about the harbour plan here.', { linkText: 'Read more about the harbour plan here.' }, false],
    ['The council approved the plan on Monday.', {}, true],
    ['"It was terrifying," she said.', {}, true],
    ['A long fragment without a full stop but with plenty of words to be a real paragraph', {}, true],
    ['Six words but no final stop', {}, false],
    [
      'Published: 19:42 BST, 3 June 2025 | Updated: 21:05 BST, 3 June 2025',
      { timeText: '19:42 BST, 3 June 2025 21:05 BST, 3 June 2025' },
      false,
    ],
    ['Copyright 2025 KVTN. All rights reserved.', {}, false],
    ['Tips? Email news@paper.example or call the newsdesk.', {}, false],
  ];
  for (const [text, parts, expected] of cases)
    void test(text, () =>
      assert.equal(isArticleText({ text, linkText: '', timeText: '', ...parts }), expected),
    );
});
