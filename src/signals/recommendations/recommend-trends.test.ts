import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Trend, TrendPlatforms } from '../trends/trend.ts';
import { brandQuery } from './brand-query.ts';
import { recommendTrends } from './recommend-trends.ts';
import type { SignalProfile } from './signal-profile.ts';
import { industryById } from '../../brand/profile/industries.ts';
import { TrendCorpus, combinedScore } from './trend-match.ts';

function trend(
  id: string,
  titles: string[],
  virality: number,
  platforms: Partial<TrendPlatforms> = {},
): Trend {
  return {
    id,
    topic: titles[0]!,
    virality_score: virality,
    urgency: 'rising',
    started_at: '2026-10-08T06:00:00.000Z',
    recency_hours: 2,
    traffic_estimate: '10K+',
    source_signals: ['news_density'],
    platforms: {
      shortsite_relevance: 0.5,
      vidsite_relevance: 0.5,
      proforum_relevance: 0.5,
      photosite_relevance: 0.5,
      ...platforms,
    },
    sources: titles.map((title, i) => ({
      title,
      url: `https://news${i}.example/${id}`,
      domain: `news${i}.example`,
    })),
  };
}

const accounting: SignalProfile = {
  brandId: 'brand_acme',
  source: 'analysis',
  name: 'Acme Books',
  industry: industryById('accounting'),
  audience: ['small business owners', 'freelancers'],
  offer: undefined,
  tone: ['trustworthy'],
  topicPool: ['Getting ready for tax season', 'Invoicing best practices', 'Cash flow forecasting'],
  poolSource: 'profile',
  bannedTopics: [],
};

const trends = [
  trend(
    'festival',
    ['Harbor Lights festival unveils its lineup', 'Festival lineup: three surprise headliners'],
    0.95,
  ),
  trend(
    'irs',
    ['IRS extends tax deadline for small businesses', 'Small business owners get more time to file taxes'],
    0.4,
  ),
  trend('invoices', ['Freelancers face new rules on invoices and receipts'], 0.3),
  trend('recall', ['Car recall: what owners need to know', 'Owners of recalled cars: what to do'], 0.9),
  trend('oil', ['Oil prices climb as OPEC cuts output'], 0.8),
];

test('trends about the brand rank first, however much more viral the others are', () => {
  const matches = new TrendCorpus(trends).matchBrand(brandQuery(accounting));
  const recommended = recommendTrends(matches, {
    count: 5,
    column: 'proforum_relevance',
    bannedTopics: [],
  });
  assert.deepEqual(
    recommended.map((r) => r.trend.id),
    ['irs', 'invoices'],
  );
  const irs = recommended[0]!;
  assert.ok(irs.matched_terms.includes('tax'), irs.matched_terms.join());
  assert.match(irs.rationale, /"tax" \(industry, topic pool\)/);
  const byId = new Map(matches.map((m) => [m.trend.id, m]));
  assert.equal(byId.get('festival')!.brandMatch, 0);
  assert.equal(byId.get('oil')!.brandMatch, 0);
  // "owners" alone (an audience word the recall story repeats) is one word, not relevance.
  assert.deepEqual(
    byId.get('recall')!.matched.map((m) => m.word),
    ['owners'],
  );
  assert.ok(recommended.every((r) => r.brand_match_score > 0 && r.brand_match_score < 1));
});

test('the combined score is the weighted geometric mean of match, virality and platform relevance', () => {
  const exponents = { match: 0.6, virality: 0.25, platform: 0.15 };
  assert.equal(
    combinedScore(0.8, 0.4, 0.9, exponents),
    Math.round(0.8 ** 0.6 * 0.4 ** 0.25 * 0.9 ** 0.15 * 1000) / 1000,
  );
  assert.equal(combinedScore(0, 1, 1, exponents), 0);
  assert.equal(combinedScore(1, 1, 1, exponents), 1);
});

test('the asked platform decides between equally relevant trends; count and banned topics are kept to', () => {
  const twins = [
    trend('a', ['IRS tax deadline for small businesses'], 0.5, {
      photosite_relevance: 0.2,
      proforum_relevance: 0.9,
    }),
    trend('b', ['Small businesses tax deadline from the IRS'], 0.5, {
      photosite_relevance: 0.9,
      proforum_relevance: 0.2,
    }),
  ];
  const matches = new TrendCorpus(twins).matchBrand(brandQuery(accounting));
  const rank = (column: 'proforum_relevance' | 'photosite_relevance') =>
    recommendTrends(matches, { count: 2, column, bannedTopics: [] }).map((r) => r.trend.id);
  assert.deepEqual(rank('proforum_relevance'), ['a', 'b']);
  assert.deepEqual(rank('photosite_relevance'), ['b', 'a']);
  assert.equal(
    recommendTrends(matches, { count: 1, column: 'proforum_relevance', bannedTopics: [] }).length,
    1,
  );
  assert.deepEqual(
    recommendTrends(matches, { count: 2, column: 'proforum_relevance', bannedTopics: ['IRS deadlines'] }),
    [],
  );
});
