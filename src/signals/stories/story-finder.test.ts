import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Trend } from '../trends/trend.ts';
import { readNiches } from './niche-categories.ts';
import { pickStories } from './story-finder.ts';
import { articleSources, matchedKeywords } from './story-match.ts';

function trend(
  id: string,
  topic: string,
  virality: number,
  sources: string[],
  extra: Partial<Trend> = {},
): Trend {
  return {
    id,
    topic,
    virality_score: virality,
    urgency: 'rising',
    started_at: '2026-03-10T08:00:00.000Z',
    recency_hours: 2,
    traffic_estimate: '10K+',
    source_signals: ['news_density'],
    platforms: {
      shortsite_relevance: 0.5,
      vidsite_relevance: 0.5,
      proforum_relevance: 0.5,
      photosite_relevance: 0.5,
    },
    sources: sources.map((url, i) => ({
      title: `${topic} (${i})`,
      url,
      domain: new URL(url).hostname.replace(/^www\./, ''),
    })),
    ...extra,
  };
}

const RECALL = trend('trd_recall', 'Solara recalls Vela SUVs over battery fire risk', 0.82, [
  'https://news.google.com/rss/articles/CBMiRecall?oc=5',
  'https://www.reuters.com/business/autos/solara-recall/',
  'https://www.reddit.com/r/cars/comments/abc/solara_recall/',
]);
const HONEY = trend('trd_honey', 'Millbrook beekeepers count record honey harvest', 0.41, [
  'https://valleytimes.example/2026/honey-harvest',
]);
const SEARCH_ONLY = trend('trd_search', 'vela recall lookup', 0.9, [
  'https://trends.google.com/trends/explore?q=vela',
  'https://en.wikipedia.org/wiki/Solara_Vela',
]);
const STORM = trend(
  'trd_storm',
  'Storm Ilse makes landfall on the coast',
  0.6,
  ['https://apnews.com/article/storm-ilse'],
  {
    urgency: 'breaking',
    recency_hours: 1,
  },
);
const OLD_STORM = trend(
  'trd_old_storm',
  'Storm Hugo weakens inland',
  0.95,
  ['https://apnews.com/article/storm-hugo'],
  {
    urgency: 'breaking',
    recency_hours: 30,
  },
);
const ALL = [HONEY, SEARCH_ONLY, RECALL, STORM, OLD_STORM];
const query = { niches: [], keywords: [], count: 1, windowHours: 24, breakingOnly: false };

void describe('readNiches', () => {
  void test('categories from beats, footage niches and common words; subjects from the rest', () => {
    assert.deepEqual(readNiches(['tech/ai', 'finance/crypto', 'Space', 'football', 'luxury', 'robots']), {
      categories: ['tech', 'business', 'science', 'sports'],
      subjects: ['robots'],
    });
    assert.deepEqual(readNiches(['nature/forest', 'default/cars']), { categories: [], subjects: [] });
    assert.deepEqual(readNiches(['default/money', 'business']).categories, ['business']);
  });
});

void describe('articleSources and matchedKeywords', () => {
  void test('aggregator links and platform pages are not articles to read', () => {
    assert.deepEqual(
      articleSources(RECALL).map((s) => s.url),
      ['https://www.reuters.com/business/autos/solara-recall/'],
    );
    assert.deepEqual(articleSources(SEARCH_ONLY), []);
  });

  void test('a keyword matches when all its content words occur, inflections included', () => {
    assert.deepEqual(matchedKeywords(HONEY, ['beekeeper', 'honey harvests', 'wax candles']), [
      'beekeeper',
      'honey harvests',
    ]);
    assert.deepEqual(matchedKeywords(RECALL, ['the']), []);
  });
});

void describe('pickStories', () => {
  void test('the most viral story with an article to read', () => {
    assert.deepEqual(
      pickStories(ALL, query).map((s) => s.trendId),
      ['trd_old_storm'],
    );
    assert.deepEqual(
      pickStories(ALL, { ...query, count: 3 }).map((s) => s.trendId),
      ['trd_old_storm', 'trd_recall', 'trd_storm'],
    );
  });

  void test('keywords and subject niches narrow to the stories that mention them', () => {
    assert.deepEqual(
      pickStories(ALL, { ...query, keywords: ['honey'], count: 3 }).map((s) => s.trendId),
      ['trd_honey'],
    );
    assert.deepEqual(
      pickStories(ALL, { ...query, niches: ['beekeepers', 'nature'] }).map((s) => s.trendId),
      ['trd_honey'],
    );
    assert.deepEqual(pickStories(ALL, { ...query, keywords: ['zeppelin'] }), []);
  });

  void test('breaking: only breaking stories inside the window, most recent first', () => {
    assert.deepEqual(
      pickStories(ALL, { ...query, breakingOnly: true, windowHours: 18, count: 5 }).map((s) => s.trendId),
      ['trd_storm'],
    );
  });

  void test('a story keeps its trend’s facts and at most five articles', () => {
    const many = trend(
      'trd_many',
      'Harbour opens',
      0.5,
      Array.from({ length: 8 }, (_, i) => `https://paper${i}.example/harbour`),
    );
    const [story] = pickStories([many], query);
    assert.equal(story!.sources.length, 5);
    assert.equal(story!.topic, 'Harbour opens');
    assert.equal(story!.viralityScore, 0.5);
  });
});
