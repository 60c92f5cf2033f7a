import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlOfPages } from './crawl-of-pages.ts';
import { domainLabel, extractName, extractTagline } from './identity.ts';

const crawlOf = (head: string, body = '', url = 'https://www.acme-books.co.uk/') =>
  crawlOfPages([{ url, html: `<html><head>${head}</head><body>${body}</body></html>` }]);

describe('extractName', () => {
  test('og:site_name comes first', () => {
    assert.equal(
      extractName(
        crawlOf('<meta property="og:site_name" content=" Acme  Books "><title>Home | Something else</title>'),
      ),
      'Acme Books',
    );
  });

  test('the title segment that matches the domain, on either side of the separator', () => {
    assert.equal(
      extractName(crawlOf('<title>Cloud bookkeeping for small teams — Acme Books</title>')),
      'Acme Books',
    );
    assert.equal(extractName(crawlOf('<title>Acme Books: bookkeeping made simple</title>')), 'Acme Books');
    assert.equal(extractName(crawlOf('<title>Home | AcmeBooks</title>')), 'AcmeBooks');
  });

  test('the logo alt text when the title does not name the domain', () => {
    const crawl = crawlOf(
      '<title>Bookkeeping for small teams and the people who run them</title>',
      '<header><a href="/"><img src="/l.png" alt="Ledgerly logo"></a></header>',
    );
    assert.equal(extractName(crawl), 'Ledgerly');
  });

  test('a very long site name is cut at a word boundary to 80 characters', () => {
    const long = 'Acme Books '.repeat(12).trim();
    const name = extractName(crawlOf(`<meta property="og:site_name" content="${long}">`));
    assert.ok(name.length <= 80 && long.startsWith(name) && name.endsWith('Books'), name);
  });

  test('the domain label, capitalized, when the page names nothing', () => {
    assert.equal(extractName(crawlOf('')), 'Acme-books');
    assert.equal(domainLabel('https://shop.example.com.au/x'), 'example');
  });
});

describe('extractTagline', () => {
  test('a short hero heading reads as the tagline', () => {
    const crawl = crawlOf(
      '<title>Acme Books</title><meta name="description" content="Acme Books is cloud accounting software for small teams. Try it free for 30 days.">',
      '<main><h1>Books that balance themselves</h1><p>Everything else.</p></main>',
    );
    assert.equal(extractTagline(crawl, 'Acme Books'), 'Books that balance themselves');
  });

  test('the title subject beats a long description when the hero heading is only the name', () => {
    const crawl = crawlOf(
      '<title>Acme Books | Bookkeeping for small teams</title><meta name="description" content="We are a company that builds accounting software, payroll tools, invoicing, receipts, reports and a great many other features for businesses of every size and kind across the world.">',
      '<h1>Acme Books</h1>',
    );
    assert.equal(extractTagline(crawl, 'Acme Books'), 'Bookkeeping for small teams');
  });

  test('a long description is cut to its first sentence and to 140 characters at a word boundary', () => {
    const long =
      'Acme Books keeps the accounts of small workshops, studios, bakeries, clinics, shops and agencies tidy, reconciled, categorized and ready for their accountants every single day of the year. Second sentence.';
    const crawl = crawlOf(`<meta name="description" content="${long}">`);
    const tagline = extractTagline(crawl, 'Acme Books');
    assert.ok(tagline.length <= 141, tagline);
    assert.ok(tagline.endsWith('…'));
    assert.ok(!tagline.includes('Second sentence'));
    assert.ok(long.startsWith(tagline.slice(0, -1)));
  });

  test('nothing to read gives an empty tagline', () => {
    assert.equal(extractTagline(crawlOf('<title>Acme Books</title>'), 'Acme Books'), '');
  });
});
