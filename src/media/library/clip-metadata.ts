// How an operator's (or an external library's) description of a clip becomes library metadata: tags in
// one spelling, niches from the NICHES list (given, or inferred from the words), a title.

import { inferNiche, isNiche, NICHES, type Niche } from '../footage/niches.ts';

export const MAX_TAGS = 30;
export const MAX_TAG_LENGTH = 40;

const NICHE_BY_LOWER: ReadonlyMap<string, Niche> = new Map(NICHES.map((n) => [n.toLowerCase(), n]));

/** "  #Sunset   Beach " → "sunset beach": lower case, no leading '#', single spaces. */
export function normalizeTag(raw: string): string {
  return raw.trim().replace(/^#+/, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Normalized, without empties and duplicates, in the order given. */
export function normalizeTags(raw: readonly string[]): string[] {
  return [...new Set(raw.map(normalizeTag).filter((t) => t !== ''))];
}

/** A niche by its exact name or any capitalization of it ('space' → 'Space'); undefined when unknown. */
export function resolveNiche(raw: string): Niche | undefined {
  const trimmed = raw.trim();
  if (isNiche(trimmed)) return trimmed;
  return NICHE_BY_LOWER.get(trimmed.toLowerCase());
}

/** "sunset_beach-01.MP4" → "sunset beach 01". */
export function titleFromFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface ClipDescription {
  title: string;
  description?: string;
  tags: string[];
  /** Niches the caller named (already validated); empty or absent to infer them. */
  niches?: Niche[];
}

export type NicheSource = 'given' | 'inferred' | 'none';

export interface MetadataMapping {
  title: string;
  tags: string[];
  niches: Niche[];
  niche_source: NicheSource;
  niche_reason: string;
}

/**
 * The niches a clip is filed under. Named niches are kept as given; otherwise the niche vocabulary is
 * matched against the tags and the title and description. A clip whose words match no niche is filed
 * under none (rather than the default niche), so it is chosen only where its own words fit a sentence.
 */
export function mapMetadata(clip: ClipDescription): MetadataMapping {
  const base = { title: clip.title, tags: clip.tags };
  if (clip.niches && clip.niches.length > 0) {
    return {
      ...base,
      niches: [...new Set(clip.niches)],
      niche_source: 'given',
      niche_reason: 'niches were given',
    };
  }
  const brief = [clip.title, clip.description ?? ''].join('. ');
  const inferred = inferNiche({ keywords: clip.tags, brief });
  if (inferred.reason.startsWith('matched ')) {
    return { ...base, niches: [inferred.niche], niche_source: 'inferred', niche_reason: inferred.reason };
  }
  return {
    ...base,
    niches: [],
    niche_source: 'none',
    niche_reason:
      'no niche vocabulary matched the title, description or tags; the clip is chosen by its own words only',
  };
}
