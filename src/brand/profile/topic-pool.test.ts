import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { industryById } from './industries.ts';
import type { SiteText } from './site-text.ts';
import { cleanTopic, keyPhrases, MAX_TOPICS, MIN_TOPICS, topicPool } from './topic-pool.ts';

function text(partial: Partial<SiteText>): SiteText {
  return {
    language: 'en',
    title: '',
    description: '',
    headings: [],
    blogTitles: [],
    paragraphs: [],
    ...partial,
  };
}

describe('cleanTopic', () => {
  test('trims quotes and trailing punctuation, keeps balanced brackets, calms capitals', () => {
    assert.equal(
      cleanTopic('  “Close your books in five days (or fewer).”  '),
      'Close your books in five days (or fewer)',
    );
    assert.equal(cleanTopic('CASH FLOW FORECASTING:'), 'Cash flow forecasting');
    assert.equal(cleanTopic('expense tracking'), 'Expense tracking');
  });
});

describe('keyPhrases', () => {
  test('recurring noun phrases first; names of people and companies and the brand left out', () => {
    const phrases = keyPhrases(
      `Acme Books automates expense tracking for small teams. Expense tracking used to take hours.
       “It changed our month-end close,” says Dana Whitfield of Harbor & Pine Architects.
       Good expense tracking makes the month-end close calm. Acme Books support answers fast.`,
      'Acme Books',
    );
    assert.equal(phrases[0]?.text, 'Expense tracking');
    assert.ok((phrases[0]?.count ?? 0) >= 2);
    const texts = phrases.map((p) => p.text.toLowerCase());
    assert.ok(texts.includes('month-end close'), texts.join(' | '));
    assert.ok(
      !texts.some((t) => t.includes('whitfield') || t.includes('harbor') || t.includes('acme')),
      texts.join(' | '),
    );
  });
});

describe('topicPool', () => {
  const accounting = industryById('accounting')!;

  test('blog titles and headings first, deduplicated by word stems; labels and calls to action dropped', () => {
    const pool = topicPool(
      text({
        blogTitles: ['How to close your books in five days', 'Cash flow forecasting for small teams'],
        headings: [
          { level: 2, text: 'Features', role: 'home' },
          { level: 2, text: 'Start your free trial', role: 'home' },
          { level: 2, text: 'Automatic bank reconciliation', role: 'home' },
          { level: 2, text: 'Bank reconciliation, automatic', role: 'about' },
          { level: 3, text: 'Can I cancel my plan at any time?', role: 'pricing' },
          { level: 2, text: 'Trusted by 4,000 accountants', role: 'home' },
          { level: 2, text: 'CASH FLOW FORECASTING FOR SMALL TEAMS', role: 'blog_post' },
        ],
      }),
      'Acme',
      ['accounting'],
    );
    assert.deepEqual(pool.topics.slice(0, 3), [
      'How to close your books in five days',
      'Cash flow forecasting for small teams',
      'Automatic bank reconciliation',
    ]);
    assert.equal(pool.fromSite, 3);
  });

  test('a small site is filled to 20 from its industry’s topic seeds, then its neighbours’', () => {
    const pool = topicPool(
      text({ headings: [{ level: 1, text: 'Bookkeeping that closes itself', role: 'home' }] }),
      'Acme',
      ['accounting', 'tax_services'],
    );
    assert.equal(pool.topics.length, MIN_TOPICS);
    assert.equal(pool.fromSite, 1);
    assert.equal(pool.topics[0], 'Bookkeeping that closes itself');
    for (const seed of accounting.topicSeeds) assert.ok(pool.topics.includes(seed), seed);
    const fromTax = pool.topics.filter((t) => industryById('tax_services')!.topicSeeds.includes(t));
    assert.equal(fromTax.length, MIN_TOPICS - 1 - accounting.topicSeeds.length);
  });

  test('never more than 40; leading topics (a refiner’s) come first', () => {
    const headings = Array.from({ length: 60 }, (_, i) => ({
      level: 2,
      text: `Guide number ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} for bookkeepers`,
      role: 'blog_post' as const,
    }));
    const pool = topicPool(text({ headings }), 'Acme', ['accounting'], ['Month-end close checklist']);
    assert.equal(pool.topics.length, MAX_TOPICS);
    assert.equal(pool.topics[0], 'Month-end close checklist');
  });
});
