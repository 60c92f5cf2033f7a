// Chooses background footage for each narrated scene: the clip whose tags and title share the most
// content words with the sentence, then the clip closest to the requested niche, then the one matching
// the footage keywords; no clip repeats while unused eligible clips remain. Each shot carries its sentence,
// the words that matched and a score (match-score.ts) describing the choice.

import { matchScore, wordsOfStems, type NicheFit } from './match-score.ts';
import { closestNiches, type Niche } from './niches.ts';
import { contentStems, exclusionTest } from './text-match.ts';

export type ClipSource = 'generated' | 'uploaded' | 'asset' | 'provider';

export interface LibraryClip {
  id: string;
  title: string;
  tags: string[];
  niches: string[];
  durationSec: number;
  source: ClipSource;
}

/** One narration sentence on the timeline (seconds). */
export interface Scene {
  index: number;
  text: string;
  start: number;
  end: number;
}

export interface FootageSelectionInput {
  scenes: Scene[];
  niche: Niche;
  /** Ranking hints, used after sentence words and niche. */
  footageKeywords?: string[];
  /** Whole-word phrases (plural-insensitive) that rule out a clip whose title or tags contain them. */
  excludeKeywords?: string[];
  clips: LibraryClip[];
  seed: number | string;
  /** Scenes longer than this are covered by two clips. */
  maxShotSec?: number;
}

export interface FootageShot {
  sceneIndex: number;
  clipId: string;
  /** Where the shot starts on the video timeline. */
  start: number;
  /** Where in the clip the shot starts. */
  inPoint: number;
  duration: number;
  /** The shot is longer than what the clip has after the in-point, so the clip must be looped. */
  loops: boolean;
  /** Sentence stems found in the clip's title or tags. */
  matched: string[];
  /** The narrated sentence the shot is under. */
  sentence: string;
  /** The sentence's words (lower case) whose stems are in `matched`. */
  matchedTerms: string[];
  /** How well the clip fits the sentence, 0–1 (docs/footage.md). */
  score: number;
}

export interface FootageSelection {
  shots: FootageShot[];
  /** The niche whose clips the selection is based on; null when neither it nor its closest niches had any. */
  nicheUsed: Niche | null;
  warnings: string[];
}

export class FootageSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FootageSelectionError';
  }
}

export const DEFAULT_MAX_SHOT_SEC = 6;

/** FNV-1a over the text: a stable 32-bit number for seeding and tie-breaking. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A deterministic value in [0,1) for a seed and a key. */
function unitRandom(seed: number | string, key: string): number {
  // Mixing once more (xorshift-multiply) spreads nearby keys across the range.
  let x = hash32(`${String(seed)}\u0000${key}`);
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return (x >>> 0) / 2 ** 32;
}

interface Candidate {
  clip: LibraryClip;
  stems: Set<string>;
  nicheRank: number;
  keywordHits: number;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export interface EligibleClips<C> {
  eligible: C[];
  /** Clips whose title or tags contain an exclude keyword. */
  excluded: number;
  /** Clips without tags, refused because exclusions were given (nothing says what they show). */
  unlabelled: number;
}

/** The clips a request may use once its exclude keywords (blank ones ignored) have ruled some out. */
export function eligibleClips<C extends Pick<LibraryClip, 'title' | 'tags'>>(
  clips: readonly C[],
  excludeKeywords: readonly string[] = [],
): EligibleClips<C> {
  const exclusions = excludeKeywords.filter((k) => k.trim() !== '');
  const excludedBy = exclusionTest(exclusions);
  let excluded = 0;
  let unlabelled = 0;
  const eligible = clips.filter((clip) => {
    if (exclusions.length > 0 && clip.tags.length === 0) {
      unlabelled++;
      return false;
    }
    if (excludedBy([clip.title, ...clip.tags]) !== undefined) {
      excluded++;
      return false;
    }
    return true;
  });
  return { eligible, excluded, unlabelled };
}

export function selectFootage(input: FootageSelectionInput): FootageSelection {
  const warnings: string[] = [];
  const { eligible, excluded, unlabelled } = eligibleClips(input.clips, input.excludeKeywords);
  if (excluded > 0) warnings.push(`excluded ${excluded} clip(s) matching exclude_keywords`);
  if (unlabelled > 0)
    warnings.push(`refused ${unlabelled} unlabelled clip(s) because exclude_keywords were given`);
  if (eligible.length === 0) {
    throw new FootageSelectionError(
      input.clips.length === 0
        ? 'the footage library has no clips'
        : 'no footage clip is eligible after exclusions',
    );
  }

  const closest = closestNiches(input.niche);
  const rankOf = (clip: LibraryClip): number =>
    Math.min(closest.length, ...clip.niches.map((n) => closest.indexOf(n as Niche)).filter((i) => i >= 0));
  const fitOf = (rank: number): NicheFit =>
    rank === 0
      ? 'requested'
      : rank >= closest.length
        ? 'none'
        : closest[rank] === 'abstract'
          ? 'abstract'
          : 'closest';
  const keywordStems = new Set(contentStems((input.footageKeywords ?? []).join(' ')));
  const candidates: Candidate[] = eligible.map((clip) => {
    const stems = new Set(contentStems([clip.title, ...clip.tags].join(' ')));
    return {
      clip,
      stems,
      nicheRank: rankOf(clip),
      keywordHits: [...keywordStems].filter((s) => stems.has(s)).length,
    };
  });

  const bestRank = Math.min(...candidates.map((c) => c.nicheRank));
  const nicheUsed = bestRank < closest.length ? closest[bestRank]! : null;
  if (nicheUsed === null) {
    warnings.push(`niche '${input.niche}' and its closest niches have no clips; used unrelated clips`);
  } else if (nicheUsed !== input.niche) {
    const had = input.clips.some((c) => c.niches.includes(input.niche));
    warnings.push(
      `niche '${input.niche}' has no ${had ? 'eligible ' : ''}clips; used closest niche '${nicheUsed}'`,
    );
  }

  const uses = new Map<string, number>();
  let previous: string | undefined;
  const shots: FootageShot[] = [];
  const maxShot = input.maxShotSec ?? DEFAULT_MAX_SHOT_SEC;

  for (const scene of [...input.scenes].sort((a, b) => a.start - b.start)) {
    const sentence = new Set(contentStems(scene.text));
    const length = Math.max(0, scene.end - scene.start);
    const parts = length > maxShot ? 2 : 1;
    for (let part = 0; part < parts; part++) {
      const duration = round2(length / parts);
      const start = round2(scene.start + part * (length / parts));
      // Least-used clips first: nothing repeats until every eligible clip has been used.
      const fewestUses = Math.min(...candidates.map((c) => uses.get(c.clip.id) ?? 0));
      let pool = candidates.filter((c) => (uses.get(c.clip.id) ?? 0) === fewestUses);
      if (pool.length > 1 && previous !== undefined) pool = pool.filter((c) => c.clip.id !== previous);
      const scored = pool.map((c) => ({
        c,
        matched: [...sentence].filter((s) => c.stems.has(s)),
        tie: unitRandom(input.seed, `${scene.index}:${part}:${c.clip.id}`),
      }));
      scored.sort(
        (a, b) =>
          b.matched.length - a.matched.length ||
          a.c.nicheRank - b.c.nicheRank ||
          b.c.keywordHits - a.c.keywordHits ||
          a.tie - b.tie,
      );
      const pick = scored[0]!;
      const clip = pick.c.clip;
      const score = matchScore({
        sentenceTerms: sentence.size,
        matchedTerms: pick.matched.length,
        nicheFit: fitOf(pick.c.nicheRank),
        keywordHit: pick.c.keywordHits > 0,
      });
      const spare = clip.durationSec - duration;
      const inPoint =
        spare > 0 ? round2(spare * unitRandom(input.seed, `in:${scene.index}:${part}:${clip.id}`)) : 0;
      shots.push({
        sceneIndex: scene.index,
        clipId: clip.id,
        start,
        inPoint,
        duration,
        loops: duration > clip.durationSec - inPoint + 1e-9,
        matched: pick.matched,
        sentence: scene.text,
        matchedTerms: wordsOfStems(scene.text, new Set(pick.matched)),
        score,
      });
      uses.set(clip.id, (uses.get(clip.id) ?? 0) + 1);
      previous = clip.id;
    }
  }
  return { shots, nicheUsed, warnings };
}
