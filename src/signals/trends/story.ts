// A story: the items clustering put together, with what every scorer reads from them.
import type { SourceItem } from '../sources/source-item.ts';
import type { ItemKeys } from './item-keys.ts';

export interface StoryItem {
  item: SourceItem;
  /** The title without a trailing " - Publisher" (headline.ts). */
  headline: string;
  /** Publication time (ms), never later than now; undefined when the source gave none. */
  at: number | undefined;
  keys: ItemKeys;
}

export interface Story {
  items: StoryItem[];
  /** Sum of the members' weighted keys (item-keys.ts). */
  centroid: ReadonlyMap<string, number>;
}

export const HOUR_MS = 3_600_000;

/**
 * When the story started: its earliest timed item. Encyclopedia items count only when nothing else is timed,
 * since their time is the day a page-view count covers, not when anything happened.
 */
export function storyStart(story: Story, now: number): number {
  const timed = (items: StoryItem[]) => items.flatMap((s) => (s.at === undefined ? [] : [s.at]));
  const events = timed(story.items.filter((s) => s.item.kind !== 'encyclopedia'));
  const times = events.length > 0 ? events : timed(story.items);
  return times.length > 0 ? Math.min(...times) : now;
}
