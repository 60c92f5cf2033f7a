import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Trend } from '../trends/trend.ts';
import { breakingView, radarView } from './trend-views.ts';

function trend(id: string, score: number, urgency: string, recency: number): Trend {
  return {
    id,
    topic: `Story ${id}`,
    virality_score: score,
    urgency,
    started_at: new Date(Date.UTC(2026, 0, 1) - recency * 3_600_000).toISOString(),
    recency_hours: recency,
    traffic_estimate: '10K+',
    source_signals: ['news_density'],
    platforms: {
      shortsite_relevance: 0.5,
      vidsite_relevance: 0.5,
      proforum_relevance: 0.5,
      photosite_relevance: 0.5,
    },
    sources: [{ title: id, url: `https://example.com/${id}`, domain: 'example.com' }],
  };
}

const trends = [
  trend('a', 0.62, 'steady', 20),
  trend('b', 0.91, 'breaking', 3),
  trend('c', 0.48, 'breaking', 1),
  trend('d', 0.77, 'rising', 5),
  trend('e', 0.91, 'breaking', 2),
  trend('f', 0.8, 'breaking', 30),
  trend('g', 0.7, 'breaking', 2),
];

const ids = (list: Trend[]) => list.map((t) => t.id);

void describe('trend views', () => {
  void test('radar: drops scores below min_virality, highest first, fresher first among equal scores', () => {
    assert.deepEqual(ids(radarView(trends, { minVirality: 0.5, limit: 20 })), ['e', 'b', 'f', 'd', 'g', 'a']);
    assert.deepEqual(ids(radarView(trends, { minVirality: 0.8, limit: 20 })), ['e', 'b', 'f']);
    assert.deepEqual(ids(radarView(trends, { minVirality: 0, limit: 2 })), ['e', 'b']);
    assert.deepEqual(ids(radarView(trends, { minVirality: 0.95, limit: 20 })), []);
  });

  void test('breaking: only breaking within the window, most recent first, then by score', () => {
    assert.deepEqual(ids(breakingView(trends, { minVirality: 0.5, limit: 20, windowHours: 18 })), [
      'e',
      'g',
      'b',
    ]);
    assert.deepEqual(ids(breakingView(trends, { minVirality: 0, limit: 20, windowHours: 48 })), [
      'c',
      'e',
      'g',
      'b',
      'f',
    ]);
    assert.deepEqual(ids(breakingView(trends, { minVirality: 0, limit: 20, windowHours: 2 })), [
      'c',
      'e',
      'g',
    ]);
  });

  void test('the input is left as it was', () => {
    const before = ids(trends);
    radarView(trends, { minVirality: 0, limit: 3 });
    breakingView(trends, { minVirality: 0, limit: 3, windowHours: 18 });
    assert.deepEqual(ids(trends), before);
  });
});
