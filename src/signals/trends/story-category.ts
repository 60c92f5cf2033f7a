// A story's category: the one most of its items were tagged with by their source (a feed listed under
// "sports", a query for "business"); failing that, the beat of its specialist publishers and communities
// (ESPN, The Verge, Hacker News); undefined when neither says. Ties go to the earlier category in
// TREND_CATEGORIES.
import { TREND_CATEGORIES, type TrendCategory } from '../sources/source-item.ts';
import type { StoryItem } from './story.ts';
import type { StoryPublisher } from './story-publishers.ts';
import { publisherOf } from './publishers.ts';

function mostCommon(votes: readonly TrendCategory[]): TrendCategory | undefined {
  let best: TrendCategory | undefined;
  let bestCount = 0;
  for (const category of TREND_CATEGORIES) {
    const count = votes.filter((v) => v === category).length;
    if (count > bestCount) {
      best = category;
      bestCount = count;
    }
  }
  return best;
}

export function storyCategory(
  items: readonly StoryItem[],
  publishers: readonly StoryPublisher[],
): TrendCategory | undefined {
  const tagged = items.flatMap((s) => (s.item.category ? [s.item.category] : []));
  // Platforms are not among a story's publishers, but a community's beat still says what it discusses.
  const communities = items.flatMap(({ item }) => {
    const site = item.domain ? publisherOf(item.domain) : undefined;
    return site?.class === 'platform' && site.beat ? [site.beat] : [];
  });
  const beats = [...publishers.flatMap((p) => (p.beat ? [p.beat] : [])), ...communities];
  return mostCommon(tagged) ?? mostCommon(beats);
}
