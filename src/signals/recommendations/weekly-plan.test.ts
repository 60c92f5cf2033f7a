import assert from 'node:assert/strict';
import { test } from 'node:test';
import { industryById } from '../../brand/profile/industries.ts';
import { HOOK_FORMATS } from '../hooks/hook-formats.ts';
import type { Trend } from '../trends/trend.ts';
import { brandQuery } from './brand-query.ts';
import { MAX_TREND_DAYS, PLAN_DAYS } from './recommendation-weights.ts';
import type { SignalProfile } from './signal-profile.ts';
import { hookFormatsForTones } from './tone-hook-formats.ts';
import { topicKey, type TopicUsage } from './topic-usage-repo.ts';
import { TrendCorpus } from './trend-match.ts';
import { buildPlan } from './weekly-plan.ts';

function trend(id: string, title: string, virality: number): Trend {
  return {
    id,
    topic: title,
    virality_score: virality,
    urgency: 'rising',
    started_at: '2026-10-08T06:00:00.000Z',
    recency_hours: 3,
    traffic_estimate: '',
    source_signals: [],
    platforms: {
      shortsite_relevance: 0.3,
      vidsite_relevance: 0.8,
      proforum_relevance: 0.6,
      photosite_relevance: 0.1,
    },
    sources: [{ title, url: `https://news.example/${id}`, domain: 'news.example' }],
  };
}

const POOL = [
  'Bookkeeping basics for small businesses',
  'Cash flow forecasting',
  'Invoicing best practices',
  'Tracking expenses and receipts',
  'Closing the books each month',
  'Reading a profit and loss statement',
  'Getting ready for tax season',
  'Bank reconciliation explained',
  'Choosing an accountant',
];

const profile: SignalProfile = {
  brandId: 'brand_acme',
  source: 'analysis',
  name: 'Acme Books',
  industry: industryById('accounting'),
  audience: ['small business owners'],
  offer: undefined,
  tone: ['trustworthy', 'friendly'],
  topicPool: POOL,
  poolSource: 'profile',
  bannedTopics: [],
};

const trends = [
  trend('irs', 'IRS extends tax filing deadline for small businesses', 0.5),
  trend('festival', 'Harbor Lights festival unveils lineup', 0.9),
];

function plan(usage = new Map<string, TopicUsage>(), corpus: TrendCorpus | null = new TrendCorpus(trends)) {
  return buildPlan({
    profile,
    query: brandQuery(profile),
    corpus: corpus ?? undefined,
    usage,
    startDate: '2026-12-30',
    category: 'business',
  });
}

test('seven consecutive dates: the matching trend first, then the pool least-used first', () => {
  const { days, poolTopics } = plan();
  assert.equal(days.length, PLAN_DAYS);
  assert.deepEqual(
    days.map((d) => d.date),
    ['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03', '2027-01-04', '2027-01-05'],
  );
  assert.equal(days[0]!.trend_id, 'irs');
  assert.equal(days[0]!.platform_suggestion, 'vidsite', 'the platform the trend rates highest');
  assert.ok(days[0]!.trend_match_score > 0.25);
  assert.ok(days.slice(1).every((d) => d.trend_id === null && POOL.includes(d.topic)));
  assert.ok(days.every((d) => d.topic !== 'Harbor Lights festival unveils lineup'));
  // Pool days: business topics suit proforum best.
  assert.ok(days.slice(1).every((d) => d.platform_suggestion === 'proforum'));
  assert.deepEqual(
    poolTopics.map((p) => p.topic),
    days.slice(1).map((d) => d.topic),
  );
  assert.equal(new Set(poolTopics.map((p) => p.topic)).size, poolTopics.length);
  // Ties on usage go to the topic that echoes a live trend: the tax one before the pool's first.
  assert.ok(
    ['Bookkeeping basics for small businesses', 'Getting ready for tax season'].includes(days[1]!.topic),
    days[1]!.topic,
  );
  const formats = hookFormatsForTones(profile.tone).map((f) => f.format);
  assert.deepEqual(
    days.map((d) => d.hook_format_suggestion),
    days.map((_, i) => formats[i % formats.length]),
  );
  assert.ok(days.every((d) => HOOK_FORMATS.includes(d.hook_format_suggestion)));
});

test('the next plan moves on: topics used before wait until the unused ones have had their turn', () => {
  const first = plan();
  const usage = new Map<string, TopicUsage>(
    first.poolTopics.map((p) => [topicKey(p.topic), { uses: 1, lastPlannedFor: p.date }]),
  );
  const second = plan(usage);
  const firstTopics = new Set(first.poolTopics.map((p) => p.topic));
  const fresh = second.poolTopics.filter((p) => !firstTopics.has(p.topic));
  assert.equal(fresh.length, POOL.length - firstTopics.size, 'every unused topic comes before any used one');
  const reused = second.poolTopics.slice(fresh.length);
  // Used ones come round again oldest plan date first (all were planned on their own day).
  assert.deepEqual(
    reused.map((p) => p.topic),
    first.poolTopics.slice(0, reused.length).map((p) => p.topic),
  );
  const lastReused = reused.at(-1)!.topic;
  const firstDate = first.poolTopics.find((p) => p.topic === lastReused)!.date;
  assert.ok(
    second.days.at(-1)!.rationale.includes(`planned 1 time before, last for ${firstDate}`),
    second.days.at(-1)!.rationale,
  );
});

test('without live trends every day comes from the pool, and a small pool comes round again', () => {
  const { days } = plan(new Map(), null);
  assert.equal(days.length, PLAN_DAYS);
  assert.ok(days.every((d) => d.trend_id === null && d.trend_match_score === 0));
  assert.match(days[0]!.rationale, /could not be read/);

  const small = buildPlan({
    profile: { ...profile, topicPool: ['Cash flow forecasting', 'Choosing an accountant'] },
    query: brandQuery(profile),
    corpus: undefined,
    usage: new Map([[topicKey('cash flow  Forecasting'), { uses: 3, lastPlannedFor: '2026-12-01' }]]),
    startDate: '2026-12-30',
    category: undefined,
  });
  assert.deepEqual(
    small.days.map((d) => d.topic),
    [
      'Choosing an accountant',
      'Choosing an accountant',
      'Choosing an accountant',
      'Cash flow forecasting',
      'Choosing an accountant',
      'Cash flow forecasting',
      'Choosing an accountant',
    ],
  );
  assert.equal(small.poolTopics.length, PLAN_DAYS);
});

test('at most MAX_TREND_DAYS days go to trends, none outranked on both match and virality; banned topics never', () => {
  const many = [
    trend('irs', 'IRS extends tax deadline for small businesses', 0.45),
    trend('invoice', 'Freelancers face new rules for invoices and receipts', 0.5),
    trend('ledger', 'Bookkeeping startup raises funds for a small business ledger', 0.35),
    trend('cash', 'Cash flow crunch hits small businesses this winter', 0.6),
    trend('accountants', 'Accountants warn of receipts scams ahead of tax season', 0.55),
    trend('festival', 'Harbor Lights festival unveils lineup', 0.9),
    trend('match', 'Marlow City signs striker in record deal', 0.8),
  ];
  const corpus = new TrendCorpus(many);
  const { days } = plan(new Map(), corpus);
  const trendDays = days.filter((d) => d.trend_id !== null);
  assert.equal(trendDays.length, MAX_TREND_DAYS);
  assert.deepEqual(days.slice(0, MAX_TREND_DAYS), trendDays, 'trend days come first');
  const matches = new Map(corpus.matchBrand(brandQuery(profile)).map((m) => [m.trend.id, m]));
  const chosen = trendDays.map((d) => d.trend_id!);
  assert.ok(chosen.every((id) => !['festival', 'match'].includes(id)));
  for (const id of chosen)
    for (const other of matches.values())
      if (!chosen.includes(other.trend.id))
        assert.ok(
          !(
            other.brandMatch > matches.get(id)!.brandMatch &&
            other.trend.virality_score > matches.get(id)!.trend.virality_score
          ),
          `${other.trend.id} beats ${id} on both`,
        );

  const banned = buildPlan({
    profile: { ...profile, bannedTopics: ['tax deadline', 'cash flow crunch'] },
    query: brandQuery(profile),
    corpus,
    usage: new Map(),
    startDate: '2026-12-30',
    category: 'business',
  });
  const bannedChosen = banned.days.flatMap((d) => (d.trend_id ? [d.trend_id] : []));
  assert.ok(!bannedChosen.includes('irs') && !bannedChosen.includes('cash'), bannedChosen.join());
  assert.ok(bannedChosen.length > 0);
});
