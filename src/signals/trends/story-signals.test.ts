import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceItem } from '../sources/source-item.ts';
import { publisherOf } from './publishers.ts';
import type { StoryItem } from './story.ts';
import type { StoryPublisher } from './story-publishers.ts';
import {
  newsDensity,
  novelty,
  quality,
  searchMomentum,
  socialSignal,
  type StoryFacts,
} from './story-signals.ts';

const NOW = Date.parse('2024-10-10T03:00:00.000Z');
const HOUR = 3_600_000;

function storyItem(item: Partial<SourceItem>, hoursAgo?: number): StoryItem {
  return {
    item: { source: 'feed', kind: 'news', title: 't', links: [], ...item },
    headline: 't',
    at: hoursAgo === undefined ? undefined : NOW - hoursAgo * HOUR,
    keys: new Map(),
  };
}

function publishers(...domains: string[]): StoryPublisher[] {
  return domains.map((d) => ({ ...publisherOf(d), seenAt: NOW }));
}

function facts(partial: Partial<StoryFacts>): StoryFacts {
  return { items: [], publishers: [], startedAt: NOW, now: NOW, ...partial };
}

describe('story signals', () => {
  test('search momentum rises with rank, volume and growth, and with more searches', () => {
    const search = (rank: number, value: number, hoursAgo: number) =>
      storyItem({ kind: 'search', rank, traffic: { text: `${value}+`, value } }, hoursAgo);
    const top = searchMomentum(facts({ items: [search(1, 1_000_000, 1)] }));
    const lower = searchMomentum(facts({ items: [search(20, 1_000_000, 1)] }));
    const smaller = searchMomentum(facts({ items: [search(1, 5_000, 1)] }));
    const slower = searchMomentum(facts({ items: [search(1, 1_000_000, 20)] }));
    assert.ok(top > lower && top > smaller && top > slower);
    const two = searchMomentum(facts({ items: [search(20, 1_000_000, 1), search(20, 1_000_000, 1)] }));
    assert.ok(two > lower && two <= 1);
    assert.equal(searchMomentum(facts({ items: [storyItem({ kind: 'news' }, 1)] })), 0);
    // Page views count, at less than searches of the same size.
    const page = storyItem({
      kind: 'encyclopedia',
      rank: 1,
      traffic: { text: '1,000,000', value: 1_000_000 },
    });
    const query = storyItem({ kind: 'search', rank: 1, traffic: { text: '1,000,000+', value: 1_000_000 } });
    assert.ok(searchMomentum(facts({ items: [page] })) < searchMomentum(facts({ items: [query] })));
  });

  test('news density counts distinct publishers, aggregators at half', () => {
    const one = newsDensity(facts({ publishers: publishers('reuters.com') }));
    const three = newsDensity(facts({ publishers: publishers('reuters.com', 'apnews.com', 'tampabay.com') }));
    const aggregators = newsDensity(facts({ publishers: publishers('msn.com', 'yahoo.com') }));
    assert.ok(one < three && three < 1);
    assert.ok(Math.abs(aggregators - one) < 1e-9, 'two aggregators weigh one publisher');
    assert.equal(newsDensity(facts({})), 0);
  });

  test('the social signal rewards engagement and its speed', () => {
    const post = (points: number, hoursAgo: number) =>
      storyItem(
        { source: 'hackernews', kind: 'social', engagement: { points, comments: points / 2 } },
        hoursAgo,
      );
    const fast = socialSignal(facts({ items: [post(400, 1)] }));
    const slow = socialSignal(facts({ items: [post(400, 20)] }));
    const small = socialSignal(facts({ items: [post(20, 1)] }));
    assert.ok(fast > slow && fast > small && fast <= 1);
    // A Reddit post needs far more upvotes than an HN post needs points for the same signal.
    const reddit = socialSignal(
      facts({
        items: [
          storyItem({ source: 'reddit', kind: 'social', engagement: { points: 400, comments: 200 } }, 1),
        ],
      }),
    );
    assert.ok(reddit < fast);
  });

  test('novelty holds for six hours, then halves every six', () => {
    const at = (hours: number) => novelty(facts({ startedAt: NOW - hours * HOUR }));
    assert.equal(at(0), 1);
    assert.equal(at(6), 1);
    assert.ok(at(8) < 1 && at(8) > at(12));
    assert.ok(Math.abs(at(12) - 0.5) < 1e-9);
  });

  test('quality: primary publishers raise it, aggregators pull it down, no publisher is neutral', () => {
    const neutral = quality(facts({}));
    const primary = quality(facts({ publishers: publishers('reuters.com', 'bbc.com') }));
    const other = quality(facts({ publishers: publishers('tampabay.com') }));
    const aggregated = quality(facts({ publishers: publishers('msn.com', 'newsbreak.com') }));
    assert.ok(primary > other && other > aggregated);
    assert.equal(other, neutral);
    assert.equal(aggregated, 0);
  });
});
