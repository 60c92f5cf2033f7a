// Audience (2–5 segments) and tone (2–4 descriptors), read from the words a site uses and steadied by
// what is typical of its industry: the industry gives a prior, the site's own cues move it.
import { contentStems, stem, tokenize } from '../../media/footage/text-match.ts';
import { AUDIENCE_CUES, type Audience } from './audiences.ts';
import type { Industry } from './industries.ts';
import { TONE_CUES, TONES, type Tone } from './tones.ts';

export const AUDIENCE_RANGE = { min: 2, max: 5 } as const;
export const TONE_RANGE = { min: 2, max: 4 } as const;

function stemsOf(text: string): string[] {
  return tokenize(text).map(stem);
}

/** Occurrences of each cue (a word or phrase, matched on stems) in the text. */
function cueCounts(words: readonly string[], cues: readonly string[]): number {
  let total = 0;
  for (const cue of cues) {
    const run = stemsOf(cue);
    if (run.length === 0) continue;
    for (let i = 0; i + run.length <= words.length; i++) {
      if (run.every((s, j) => words[i + j] === s)) total += 1;
    }
  }
  return total;
}

/** Cue hits per thousand content words, so a long site does not outvote a short one. */
function density(hits: number, contentWords: number): number {
  return (hits * 1000) / Math.max(contentWords, 200);
}

/** Prior of an industry's listed item by its rank: the first is the most typical. */
function prior(rank: number): number {
  return rank < 0 ? 0 : 3 - rank * 0.5;
}

interface Ranked<T> {
  value: T;
  score: number;
}

function choose<T>(ranked: Ranked<T>[], range: { min: number; max: number }, keep: number): T[] {
  // A stable sort: equal scores keep the vocabulary's order, so the result depends on the input alone.
  ranked.sort((a, b) => b.score - a.score);
  const top = ranked[0]?.score ?? 0;
  // Beyond the minimum, an item stays only when it scores near the best.
  return ranked
    .filter((r, i) => i < range.min || (r.score > 0 && r.score >= top * keep))
    .slice(0, range.max)
    .map((r) => r.value);
}

/** Audience segments, best first: the segments the site names, with its industry's typical ones as prior. */
export function detectAudience(text: string, industry: Industry): Audience[] {
  const words = stemsOf(text);
  const contentWords = contentStems(text).length;
  const ranked = (Object.keys(AUDIENCE_CUES) as Audience[]).map((audience) => ({
    value: audience,
    score:
      prior(industry.audiences.indexOf(audience)) +
      density(cueCounts(words, AUDIENCE_CUES[audience]), contentWords) * 1.5,
  }));
  return choose(ranked, AUDIENCE_RANGE, 0.5);
}

/** Tone descriptors, best first: the site's own wording, with its industry's typical tones as prior. */
export function detectTone(text: string, industry: Industry): Tone[] {
  const words = stemsOf(text);
  const contentWords = contentStems(text).length;
  const exclamations = (text.match(/!/g) ?? []).length;
  const ranked = TONES.map((tone) => {
    let score =
      prior(industry.tones.indexOf(tone)) + density(cueCounts(words, TONE_CUES[tone]), contentWords);
    // Exclamation marks read as playful and energetic when they are frequent.
    if (tone === 'playful' || tone === 'energetic') score += density(exclamations, contentWords) * 0.5;
    return { value: tone, score };
  });
  return choose(ranked, TONE_RANGE, 0.6);
}
