import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as cheerio from 'cheerio';
import { fitMetaDescription, type ArticleDraft } from './article-draft.ts';
import { articleMarkdown, renderArticle } from './article-render.ts';
import { outlineOf } from './article-text.ts';

// The layout and the rendering: what a writer's text can and cannot do to the page, and the JSON-LD.

function draft(overrides: Partial<ArticleDraft> = {}): ArticleDraft {
  return {
    title: 'Rain Gardens: A Practical Guide',
    metaDescription: 'How rain gardens soak up storm water.',
    primaryKeyword: 'rain gardens',
    secondaryKeywords: ['storm water'],
    slug: 'rain-gardens',
    intro: ['Rain gardens catch water from roofs.'],
    sections: [
      {
        heading: 'Planning rain gardens',
        paragraphs: ['Pick a low spot.'],
        bullets: ['Check the soil.'],
        quote: ['A quoted line.'],
        subsections: [{ heading: 'Size', paragraphs: ['Measure the roof.'] }],
      },
    ],
    faq: [{ question: 'Do rain gardens need *care*?', answer: 'A little: weed them in **spring**.' }],
    sources: [{ title: 'Gardens [2024] <guide>', url: 'https://example.org/a b', publisher: 'Example & Co' }],
    pillar: 'home gardening',
    ...overrides,
  };
}

const meta = { wordCount: 42, publishedAt: new Date('2026-03-01T10:00:00Z') };

void describe('article rendering', () => {
  void test('the page holds one H1, the meta tags and the JSON-LD graph; the CMS body has no H1', () => {
    const rendered = renderArticle(draft(), meta);
    const $ = cheerio.load(rendered.html);
    assert.equal($('html').attr('lang'), 'en');
    assert.equal($('h1').length, 1);
    assert.equal($('title').text(), 'Rain Gardens: A Practical Guide');
    assert.equal($('meta[name="description"]').attr('content'), 'How rain gardens soak up storm water.');
    assert.equal($('meta[name="keywords"]').attr('content'), 'rain gardens, storm water');
    assert.deepEqual(
      $('h2')
        .toArray()
        .map((h) => $(h).text()),
      ['Planning rain gardens', 'Frequently asked questions about rain gardens', 'Sources'],
    );
    assert.equal($('blockquote p').text(), 'A quoted line.');
    const jsonLd = JSON.parse($('script[type="application/ld+json"]').text());
    const [article, faq] = jsonLd['@graph'];
    assert.deepEqual(jsonLd, rendered.jsonLd);
    assert.equal(article['@type'], 'Article');
    assert.equal(article.datePublished, '2026-03-01T10:00:00.000Z');
    assert.equal(article.wordCount, 42);
    assert.equal(article.articleSection, 'home gardening');
    assert.deepEqual(article.citation[0], {
      '@type': 'CreativeWork',
      name: 'Gardens [2024] <guide>',
      url: 'https://example.org/a b',
      publisher: { '@type': 'Organization', name: 'Example & Co' },
    });
    // Questions print literally; answers as the reader reads them.
    assert.deepEqual(faq.mainEntity[0], {
      '@type': 'Question',
      name: 'Do rain gardens need *care*?',
      acceptedAnswer: { '@type': 'Answer', text: 'A little: weed them in spring.' },
    });
    assert.doesNotMatch(rendered.contentHtml, /<h1/);
    assert.match(rendered.contentHtml, /^<p>Rain gardens catch water from roofs\.<\/p>/);
    assert.equal(cheerio.load(rendered.contentHtml)('a').attr('href'), 'https://example.org/a%20b');
  });

  void test('a writer’s text cannot inject HTML, scripts, unsafe links or block structure', () => {
    const hostile = draft({
      title: 'Rain </title><script>alert(1)</script>',
      intro: [
        'Click [here](javascript:alert(1)) or <img src=x onerror=alert(1)> ![pic](https://example.org/p.png).',
        '# Not a heading',
        '- not a list',
        '1. not a list either',
        '> not a quote',
        '---',
      ],
      sections: [
        {
          heading: '## Heading ## with marks *and* <b>tags</b>',
          paragraphs: ['Fine [link](https://example.org).'],
        },
      ],
      faq: [{ question: 'Q </script><script>alert(2)</script>?', answer: 'A.' }],
    });
    const rendered = renderArticle(hostile, meta);
    const $ = cheerio.load(rendered.html);
    assert.equal($('script').length, 1, 'only the JSON-LD script');
    assert.equal($('img').length, 0);
    assert.deepEqual(
      $('a')
        .toArray()
        .map((a) => $(a).attr('href')),
      ['https://example.org', 'https://example.org/a%20b'],
    );
    assert.equal($('h1').length, 1);
    assert.equal($('h1').text(), 'Rain </title><script>alert(1)</script>');
    assert.deepEqual($('h2').first().text(), 'Heading ## with marks *and* <b>tags</b>');
    assert.equal($('ul li').length, 1, 'only the sources list');
    assert.equal($('ol, blockquote, hr').length, 0);
    assert.equal(
      JSON.parse($('script').text())['@graph'][1].mainEntity[0].name,
      'Q </script><script>alert(2)</script>?',
    );
    const outline = outlineOf(articleMarkdown(hostile));
    assert.deepEqual(
      outline.headings.map((h) => h.depth),
      [1, 2, 2, 3, 2],
    );
  });

  void test('meta descriptions are kept to 160 characters, at a sentence or a word', () => {
    const sentence = 'Rain gardens soak up storm water from roofs and drives. ';
    const long = sentence.repeat(4);
    const kept = fitMetaDescription(long);
    assert.ok(kept.length <= 160);
    assert.equal(kept, sentence.repeat(2).trim());
    const oneSentence = `Rain gardens ${'soak up water and '.repeat(12)}grow.`;
    const cut = fitMetaDescription(oneSentence);
    assert.ok(cut.length <= 160 && cut.endsWith('…') && !cut.endsWith(' …'), cut);
    assert.equal(fitMetaDescription('Short one.'), 'Short one.');
  });
});
