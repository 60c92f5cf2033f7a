// traffic_estimate: how many people the sources say a story reached, in one phrase, from the first kind of
// evidence the story has, summed over its items of that kind:
//   search trends' stated volume: "200K+ searches" (Google's approximate traffic is a floor, hence "+");
//   encyclopedia page views: "1.2M page views";
//   video views: "3.4M views";
//   posts' points or upvotes plus comments: "1.5K interactions";
//   otherwise "unknown".
import type { ItemKind, SourceItem } from '../sources/source-item.ts';
import type { StoryItem } from './story.ts';

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

const EVIDENCE: readonly { kind: ItemKind; unit: string; amount: (item: SourceItem) => number }[] = [
  { kind: 'search', unit: 'searches', amount: (i) => i.traffic?.value ?? 0 },
  { kind: 'encyclopedia', unit: 'page views', amount: (i) => i.traffic?.value ?? 0 },
  { kind: 'video', unit: 'views', amount: (i) => i.traffic?.value ?? 0 },
  {
    kind: 'social',
    unit: 'interactions',
    amount: (i) => (i.engagement ? i.engagement.points + i.engagement.comments : 0),
  },
];

export function trafficEstimate(items: readonly StoryItem[]): string {
  for (const { kind, unit, amount } of EVIDENCE) {
    const counted = items.filter((s) => s.item.kind === kind && amount(s.item) > 0);
    if (counted.length === 0) continue;
    const total = counted.reduce((sum, s) => sum + amount(s.item), 0);
    const floor = counted.some((s) => s.item.traffic?.text.includes('+'));
    return `${compact.format(total)}${floor ? '+' : ''} ${unit}`;
  }
  return 'unknown';
}
