// How pressing a story is. Breaking: young and fast-rising: started at most BREAKING_MAX_AGE_HOURS ago, and
// either at least BREAKING_PUBLISHERS publishers (aggregators left out) carried it within the last
// RECENT_HOURS, or search momentum is at least BREAKING_SEARCH_MOMENTUM with at least one such publisher.
// Rising: not breaking, and at least half of its timed items came within the last RECENT_HOURS. Steady:
// the rest.
import { HOUR_MS, type StoryItem } from './story.ts';
import type { StoryPublisher } from './story-publishers.ts';
import type { Signals } from './story-signals.ts';

export type Urgency = 'breaking' | 'rising' | 'steady';

export const BREAKING_MAX_AGE_HOURS = 6;
export const RECENT_HOURS = 3;
export const BREAKING_PUBLISHERS = 3;
export const BREAKING_SEARCH_MOMENTUM = 0.7;

export interface UrgencyFacts {
  items: readonly StoryItem[];
  publishers: readonly StoryPublisher[];
  signals: Signals;
  startedAt: number;
  now: number;
}

export function urgencyOf(facts: UrgencyFacts): Urgency {
  const recentSince = facts.now - RECENT_HOURS * HOUR_MS;
  const recentPublishers = facts.publishers.filter(
    (p) => p.class !== 'aggregator' && p.seenAt !== undefined && p.seenAt >= recentSince,
  ).length;
  const young = facts.now - facts.startedAt <= BREAKING_MAX_AGE_HOURS * HOUR_MS;
  const fastRising =
    recentPublishers >= BREAKING_PUBLISHERS ||
    (facts.signals.search_momentum >= BREAKING_SEARCH_MOMENTUM && recentPublishers >= 1);
  if (young && fastRising) return 'breaking';
  const timed = facts.items.filter((s) => s.at !== undefined);
  const recent = timed.filter((s) => (s.at ?? 0) >= recentSince);
  return timed.length > 0 && recent.length * 2 >= timed.length ? 'rising' : 'steady';
}
