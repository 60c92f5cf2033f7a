import type { Trend } from '../trends/trend.ts';

// What each route shows of the trends built for its window (spec 2 §4.1): pure, so that the same build always
// gives the same answer. Ties are broken down to the id, so equal scores never reorder between calls.

function byId(a: Trend, b: Trend): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface ViewOptions {
  minVirality: number;
  limit: number;
}

/** GET /trends/radar: trends scoring at least `minVirality`, highest score first, freshest among equals. */
export function radarView(trends: readonly Trend[], options: ViewOptions): Trend[] {
  return trends
    .filter((t) => t.virality_score >= options.minVirality)
    .sort((a, b) => b.virality_score - a.virality_score || a.recency_hours - b.recency_hours || byId(a, b))
    .slice(0, options.limit);
}

/**
 * GET /trends/breaking: urgency `breaking` within the last `windowHours`. Spec 2 §4.1 orders by urgency then
 * recency_hours ascending; every trend shown has the same urgency, so that is recency, then score.
 */
export function breakingView(
  trends: readonly Trend[],
  options: ViewOptions & { windowHours: number },
): Trend[] {
  return trends
    .filter(
      (t) =>
        t.urgency === 'breaking' &&
        t.recency_hours <= options.windowHours &&
        t.virality_score >= options.minVirality,
    )
    .sort((a, b) => a.recency_hours - b.recency_hours || b.virality_score - a.virality_score || byId(a, b))
    .slice(0, options.limit);
}
