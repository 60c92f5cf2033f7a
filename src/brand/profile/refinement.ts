// What a refiner's answer may change: the industry only to another id of the table, audience and tone
// only within their ranges (tone from the tone vocabulary), topics cleaned and deduplicated. Anything
// short of the rules is made up from the local result, never left short.
import { cleanTopic } from './topic-pool.ts';
import { isIndustryId } from './industries.ts';
import { AUDIENCE_RANGE, TONE_RANGE } from './audience-and-tone.ts';
import type { BrandTextRefinement } from './brand-text-refiner.ts';
import { isTone, type Tone } from './tones.ts';

const MAX_AUDIENCE_CHARS = 80;

function dedupe(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = item.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The refined list, filled from the local one up to `min` and cut at `max`. */
function within(
  refined: readonly string[],
  local: readonly string[],
  range: { min: number; max: number },
): string[] {
  const out = dedupe(refined).slice(0, range.max);
  for (const item of dedupe(local)) {
    if (out.length >= range.min) break;
    if (!out.some((o) => o.toLowerCase() === item.toLowerCase())) out.push(item);
  }
  return out;
}

export interface MergedRefinement {
  industry: string;
  audience: string[];
  tone: Tone[];
  /** The refiner's topics, cleaned; the caller completes the pool. */
  topics: string[];
}

export function mergeRefinement(
  refined: BrandTextRefinement,
  local: { industry: string; audience: readonly string[]; tone: readonly Tone[] },
): MergedRefinement {
  const industry = isIndustryId(refined.industry) ? refined.industry : local.industry;
  const audience = within(
    refined.audience
      .map((a) => a.replace(/\s+/g, ' ').trim())
      .filter((a) => a.length > 0 && a.length <= MAX_AUDIENCE_CHARS),
    local.audience,
    AUDIENCE_RANGE,
  );
  const tone = within(
    refined.tone.map((t) => t.trim().toLowerCase()).filter(isTone),
    local.tone,
    TONE_RANGE,
  ) as Tone[];
  const topics = dedupe(refined.topic_pool.map(cleanTopic).filter((t) => t.length > 0));
  return { industry, audience, tone, topics };
}
