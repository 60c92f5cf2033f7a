import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ArticleBrief, ArticleDraft } from './article-draft.ts';
import { articleMarkdown } from './article-render.ts';
import { primaryKeyword, secondaryKeywords } from './keywords.ts';
import { writeEvergreenArticle, writeTrendArticle } from './local-article-writer.ts';
import { checkQuality } from './quality-gates.ts';
import type { TrendMaterial } from './trend-material.ts';

// The local writer's articles pass the gates from a brief alone, and from a trend they say only what its
// reports say; a trend with too little reporting is not padded out to pass.

function brief(request: { topic?: string; pillar?: string }): ArticleBrief {
  const keyword = primaryKeyword(request);
  return { ...request, primaryKeyword: keyword, secondaryKeywords: secondaryKeywords(keyword, request) };
}

function gates(draft: ArticleDraft) {
  return checkQuality({
    markdown: articleMarkdown(draft),
    title: draft.title,
    metaDescription: draft.metaDescription,
    primaryKeyword: draft.primaryKeyword,
  });
}

const REPORTS = [
  {
    publisher: 'Valley Times',
    title: 'Millbrook beekeepers count record honey harvest',
    paragraphs: [
      'Beekeepers in Millbrook collected a record honey harvest this summer, the valley beekeepers association said on Monday.',
      'A wet spring filled the meadows with clover, and the warm weeks of July kept the bees flying late into the evening.',
      'The association counted twelve tonnes of honey from its members, three tonnes more than in any year before.',
      'Members will sell jars at the autumn market in the town square, and a share of the takings goes to a school garden.',
    ],
  },
  {
    publisher: 'Ridge Reporter',
    title: 'Record honey harvest for Millbrook beekeepers',
    paragraphs: [
      'The Millbrook beekeepers weighed twelve tonnes of honey this year, a record for the valley.',
      'Older members said the clover bloom was the longest they could remember.',
      'The association plans to train twenty new beekeepers next spring, using hives donated by local farms.',
      'Farmers near the village say their orchards also set more fruit this year, which they credit to the bees.',
    ],
  },
];

function material(reports = REPORTS): TrendMaterial {
  return {
    trend: {
      id: 'trend_honey',
      topic: 'Millbrook beekeepers count record honey harvest',
      urgency: 'rising',
      startedAt: '2026-03-02T08:00:00Z',
      viralityScore: 0.62,
    },
    sources: reports.map((r, i) => ({
      title: r.title,
      url: `https://news${i}.example/honey`,
      domain: `news${i}.example`,
    })),
    reports: reports.map((r, i) => ({
      ...r,
      url: `https://news${i}.example/honey`,
      finalUrl: `https://news${i}.example/honey`,
    })),
    skipped: [],
  };
}

void describe('local article writer', () => {
  void test('evergreen articles from briefs of every shape pass every gate', () => {
    for (const request of [
      { topic: 'how compound interest grows savings', pillar: 'personal finance' },
      { topic: 'Why sleep matters for athletes' },
      { topic: '5 mistakes beginners make with sourdough' },
      { topic: 'how to write a resume', pillar: 'careers' },
      { pillar: 'remote work' },
    ]) {
      const draft = writeEvergreenArticle(brief(request));
      const report = gates(draft);
      assert.equal(report.passed, true, `${JSON.stringify(request)}: ${JSON.stringify(report.gates)}`);
      assert.ok(draft.faq.length >= 3);
      assert.equal(draft.sources.length, 0);
      assert.ok(draft.metaDescription.length <= 160);
    }
  });

  void test('evergreen articles state the brief’s claim and audience, and no figures of their own', () => {
    const draft = writeEvergreenArticle(
      brief({ topic: 'why sleep matters for athletes', pillar: 'sports science' }),
    );
    const markdown = articleMarkdown(draft);
    assert.match(markdown, /sleep matters for athletes/);
    assert.match(markdown, /written for athletes/);
    assert.match(markdown, /as part of our sports science series/);
    assert.doesNotMatch(markdown.replace(/Step \d/g, ''), /\d/);
  });

  void test('a trend article quotes its reports word for word, names and links each, and passes the gates', () => {
    const draft = writeTrendArticle(
      brief({ topic: 'honey harvest' }),
      material(),
      new Date('2026-03-03T12:00:00Z'),
    );
    const report = gates(draft);
    assert.equal(report.passed, true, JSON.stringify(report.gates));
    const markdown = articleMarkdown(draft);
    const quoted = REPORTS.flatMap((r) => r.paragraphs).filter((p) => markdown.includes(p));
    assert.ok(quoted.length >= 5, String(quoted.length));
    assert.match(markdown, /what two publishers report about honey harvest: Valley Times and Ridge Reporter/);
    assert.match(markdown, /started trending on March 2, 2026/);
    assert.match(markdown, /rates its urgency as rising and its virality at 62 out of 100/);
    assert.deepEqual(
      draft.sources.map((s) => s.publisher),
      ['Valley Times', 'Ridge Reporter'],
    );
    // The trend's headline names the keyword, so it is the title; otherwise the keyword leads it.
    assert.equal(draft.title, 'Millbrook beekeepers count record honey harvest');
    const other = writeTrendArticle(
      brief({ topic: 'clover meadows' }),
      material(),
      new Date('2026-03-03T12:00:00Z'),
    );
    assert.equal(other.title, 'Clover meadows: Millbrook beekeepers count record honey harvest');
    // Every figure in the article comes from a report or from the radar's measurements.
    const reported = REPORTS.flatMap((r) => r.paragraphs).join(' ');
    const own = markdown
      .split('\n')
      .filter((line) => !line.startsWith('“') && !line.includes('reports: “') && !line.startsWith('- ['))
      .join(' ');
    for (const figure of own.match(/\d+/g) ?? [])
      assert.ok(['2', '2026', '62', '100', '3'].includes(figure) || reported.includes(figure), figure);
  });

  void test('a trend with too little reporting is not padded: it fails the length gate', () => {
    const thin = [{ ...REPORTS[1]!, paragraphs: [REPORTS[1]!.paragraphs[0]!] }];
    const report = gates(
      writeTrendArticle(brief({ topic: 'honey harvest' }), material(thin), new Date('2026-03-03T12:00:00Z')),
    );
    assert.deepEqual(report.failed, ['length']);
  });
});
