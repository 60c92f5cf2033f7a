// How well a story suits each platform, 0–1: 0.7 × the affinity of the story's category with the platform
// (the table below) + 0.3 × the platform's fit with the story's signals:
//   shortsite (short vertical video; entertainment, sport and pop culture move fastest there):
//     mean of social signal and novelty — what is fresh and shared;
//   vidsite (longer video, searched for: explainers, reviews, highlights):
//     search momentum, or 1 when the story already has videos among its items;
//   proforum (a professional network: business, tech, science, policy):
//     mean of quality and news density — credible, widely reported;
//   photosite (image-led: entertainment, sport, lifestyle, people):
//     social signal.
// A story with no category uses the "none" row: no platform is ruled out, none favoured much.
import type { TrendCategory } from '../sources/source-item.ts';
import type { StoryItem } from './story.ts';
import type { Signals } from './story-signals.ts';
import type { TrendPlatforms } from './trend.ts';

type Platform = keyof TrendPlatforms;

/** Affinity of each category with each platform, in the order shortsite, vidsite, proforum, photosite. */
const CATEGORY_AFFINITY: Readonly<Record<TrendCategory | 'none', readonly [number, number, number, number]>> =
  {
    entertainment: [1.0, 0.9, 0.2, 0.9],
    sports: [0.9, 0.8, 0.3, 0.8],
    tech: [0.6, 0.8, 0.9, 0.3],
    business: [0.4, 0.6, 1.0, 0.2],
    science: [0.6, 0.8, 0.6, 0.5],
    health: [0.6, 0.6, 0.6, 0.6],
    politics: [0.6, 0.7, 0.5, 0.2],
    none: [0.6, 0.6, 0.5, 0.4],
  };
const CATEGORY_SHARE = 0.7;

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export function platformRelevance(
  category: TrendCategory | undefined,
  signals: Signals,
  items: readonly StoryItem[],
): TrendPlatforms {
  const [shortsite, vidsite, proforum, photosite] = CATEGORY_AFFINITY[category ?? 'none'];
  const hasVideo = items.some((s) => s.item.kind === 'video');
  const fit: Record<Platform, number> = {
    shortsite_relevance: (signals.social_signal + signals.novelty) / 2,
    vidsite_relevance: hasVideo ? 1 : signals.search_momentum,
    proforum_relevance: (signals.quality + signals.news_density) / 2,
    photosite_relevance: signals.social_signal,
  };
  const relevance = (platform: Platform, affinity: number): number =>
    round2(CATEGORY_SHARE * affinity + (1 - CATEGORY_SHARE) * fit[platform]);
  return {
    shortsite_relevance: relevance('shortsite_relevance', shortsite),
    vidsite_relevance: relevance('vidsite_relevance', vidsite),
    proforum_relevance: relevance('proforum_relevance', proforum),
    photosite_relevance: relevance('photosite_relevance', photosite),
  };
}
