import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlOfPages } from './crawl-of-pages.ts';
import { siteText, weightedDocument } from './site-text.ts';

describe('siteText', () => {
  test('language, title, description, headings by page, blog titles and content paragraphs', () => {
    const crawl = crawlOfPages([
      {
        url: 'https://acme.test/',
        role: 'home',
        html: `<html lang="en-GB"><head><title>Acme</title><meta name="description" content="Books  for
          small teams."></head><body>
          <nav><p>Menu item that is long enough</p></nav>
          <h1>Bookkeeping that closes itself</h1>
          <p>Automatic bank reconciliation for small businesses.</p>
          <ul><li><p>Nested paragraph in a list item.</p></li></ul>
          <section><a href="/blog/cash-flow">Cash flow forecasting for small teams</a><a href="/blog/">Blog</a></section>
          <footer><p>Copyright notice with many words here.</p></footer>
          <form><p>Enter your email address below please.</p></form>
          <script>var notText = "document.write('no')";</script></body></html>`,
      },
      {
        url: 'https://acme.test/blog/close',
        role: 'blog_post',
        html: '<html><body><article><h1>How to close your books in five days</h1><h2>Day one</h2></article></body></html>',
      },
    ]);
    const text = siteText(crawl);
    assert.equal(text.language, 'en-gb');
    assert.equal(text.title, 'Acme');
    assert.equal(text.description, 'Books for small teams.');
    assert.deepEqual(text.headings, [
      { level: 1, text: 'Bookkeeping that closes itself', role: 'home' },
      { level: 1, text: 'How to close your books in five days', role: 'blog_post' },
      { level: 2, text: 'Day one', role: 'blog_post' },
    ]);
    assert.deepEqual(text.blogTitles, [
      'Cash flow forecasting for small teams',
      'How to close your books in five days',
    ]);
    assert.deepEqual(text.paragraphs, [
      'Automatic bank reconciliation for small businesses.',
      'Nested paragraph in a list item.',
    ]);
    const doc = weightedDocument(text);
    assert.equal(doc.split('Bookkeeping that closes itself').length - 1, 3, 'an h1 counts three times');
  });

  test('a page without lang is English; og:locale is read when lang is missing', () => {
    assert.equal(
      siteText(crawlOfPages([{ url: 'https://a.test/', html: '<p>Hallo Welt hier.</p>' }])).language,
      'en',
    );
    assert.equal(
      siteText(
        crawlOfPages([
          {
            url: 'https://a.test/',
            html: '<head><meta property="og:locale" content="de_DE"></head><p>x</p>',
          },
        ]),
      ).language,
      'de-de',
    );
  });
});
