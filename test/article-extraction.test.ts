import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { extractArticle, type ExtractedArticle } from '../src/modes/news/html-extract.ts';
import { collapseWhitespace, parseDocument } from '../src/modes/news/html-text.ts';

// Article extraction measured on saved article pages of several publisher layouts (test/fixtures/news-pages:
// each page beside a sidecar with the paragraphs a reader sees as the article). Recall: share of the
// article's paragraphs extracted word for word. Precision: share of extracted paragraphs that are the
// article's (paragraphs the sidecar lists as optional, such as a standfirst or a contributor line, count
// neither way). Boilerplate: extracted paragraphs holding any of the page's chrome (navigation, ads, captions,
// related links, comments, cookie banners, footers). The figures are in each test's name.

const PAGES = join(import.meta.dirname, 'fixtures', 'news-pages');
const MIN_RECALL = 0.95;
const MIN_PRECISION = 0.95;

interface Expected {
  layout: string;
  title: string;
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  language?: string;
  paragraphs: string[];
  optional?: string[];
  boilerplate: string[];
}

interface Measured {
  recall: number;
  precision: number;
  missed: string[];
  extra: string[];
  boilerplate: string[];
}

function measure(article: ExtractedArticle, expected: Expected): Measured {
  const got = article.paragraphs.map(collapseWhitespace);
  const want = expected.paragraphs.map(collapseWhitespace);
  const optional = new Set((expected.optional ?? []).map(collapseWhitespace));
  const missed = want.filter((p) => !got.includes(p));
  const judged = got.filter((p) => !optional.has(p));
  const extra = judged.filter((p) => !want.includes(p));
  return {
    recall: (want.length - missed.length) / want.length,
    precision: judged.length === 0 ? 0 : (judged.length - extra.length) / judged.length,
    missed,
    extra,
    boilerplate: got.filter((p) =>
      expected.boilerplate.some((b) => p.toLowerCase().includes(b.toLowerCase())),
    ),
  };
}

const pages = readdirSync(PAGES)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((file) => {
    const name = file.replace(/\.html$/, '');
    const expected = JSON.parse(readFileSync(join(PAGES, `${name}.json`), 'utf8')) as Expected;
    const html = readFileSync(join(PAGES, file), 'utf8');
    const article = extractArticle(html);
    return { name, html, expected, article, measured: measure(article, expected) };
  });

void describe('article extraction on saved news pages', () => {
  void test('the fixtures cover several publisher layouts', () => {
    assert.ok(pages.length >= 6, `${pages.length} pages`);
  });

  void test('each sidecar agrees with its page: its paragraphs are on the page, its boilerplate is not in them', () => {
    for (const { name, html, expected } of pages) {
      const pageText = collapseWhitespace(parseDocument(html).body.textContent ?? '');
      for (const p of [...expected.paragraphs, ...(expected.optional ?? [])])
        assert.ok(pageText.includes(collapseWhitespace(p)), `${name}: not on the page: ${p}`);
      for (const b of expected.boilerplate) {
        assert.ok(
          pageText.toLowerCase().includes(b.toLowerCase()),
          `${name}: boilerplate not on the page: ${b}`,
        );
        for (const p of [...expected.paragraphs, ...(expected.optional ?? [])])
          assert.ok(
            !p.toLowerCase().includes(b.toLowerCase()),
            `${name}: "${b}" is in the article text: ${p}`,
          );
      }
    }
  });

  for (const { name, expected, article, measured } of pages) {
    const figures = `recall ${measured.recall.toFixed(2)}, precision ${measured.precision.toFixed(2)}, boilerplate ${measured.boilerplate.length}`;
    void test(`${name} (${expected.layout}): ${figures}`, () => {
      assert.deepEqual(measured.boilerplate, [], 'boilerplate in the extracted paragraphs');
      assert.ok(
        measured.recall >= MIN_RECALL,
        `recall ${measured.recall}; missed: ${measured.missed.join(' | ')}`,
      );
      assert.ok(
        measured.precision >= MIN_PRECISION,
        `precision ${measured.precision}; not the article's: ${measured.extra.join(' | ')}`,
      );
    });

    void test(`${name}: title, byline, site, publication time and language`, () => {
      assert.equal(article.title, expected.title);
      if (expected.byline) assert.match(article.byline ?? '', new RegExp(expected.byline, 'i'));
      assert.equal(article.siteName, expected.siteName);
      if (expected.publishedTime)
        assert.equal(Date.parse(article.publishedTime ?? ''), Date.parse(expected.publishedTime));
      else assert.equal(article.publishedTime, undefined);
      assert.equal(article.language, expected.language);
    });
  }

  void test('over all pages: recall and precision of the article paragraphs', () => {
    const want = pages.reduce((n, p) => n + p.expected.paragraphs.length, 0);
    const missed = pages.reduce((n, p) => n + p.measured.missed.length, 0);
    const extra = pages.reduce((n, p) => n + p.measured.extra.length, 0);
    const got = pages.reduce((n, p) => n + p.article.paragraphs.length, 0);
    const recall = (want - missed) / want;
    assert.ok(recall >= MIN_RECALL, `overall recall ${recall.toFixed(3)} (${want - missed}/${want})`);
    assert.ok(
      extra / got <= 1 - MIN_PRECISION,
      `${extra} of ${got} extracted paragraphs are not article text`,
    );
  });
});
