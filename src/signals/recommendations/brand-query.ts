// A brand as a BM25 query (bm25.ts): the content words of its industry's keywords (and a kit's offer), its
// audience segments with the words sites use for them, and its topic pool, each occurrence weighted by the
// field it came from (recommendation-weights.ts). Words are compared as stems with the project's one
// matcher (media/footage/text-match.ts), so "invoices" meets "invoicing"; each stem keeps the first word it
// was seen as, to show the caller which of the brand's own words a trend matched. Numbers are left out, in
// words as in digits ("three locations", "day two"): a quantity is not what a brand is about.
import nlp from 'compromise';
import { AUDIENCE_CUES } from '../../brand/profile/audiences.ts';
import { contentStems, tokenize } from '../../media/footage/text-match.ts';
import { FIELD_WEIGHTS, type ProfileField } from './recommendation-weights.ts';
import type { SignalProfile } from './signal-profile.ts';

export interface QueryTerm {
  /** Summed field weights of every occurrence. */
  weight: number;
  /** The brand's own word for it, as first seen. */
  word: string;
  fields: Set<ProfileField>;
}

export type BrandQuery = ReadonlyMap<string, QueryTerm>;

/** Each content word of a text with its stem, in order. */
export function wordsWithStems(text: string): { word: string; stem: string }[] {
  return tokenize(text).flatMap((word) => {
    const [stem] = contentStems(word);
    return stem === undefined ? [] : [{ word, stem }];
  });
}

/** The content words of a text without its numbers (compromise's #Value: "three", "eleven", "fourth"). */
function subjectWords(text: string): { word: string; stem: string }[] {
  const numbers = new Set(
    (nlp(text).match('#Value').out('array') as string[]).flatMap((phrase) => tokenize(phrase)),
  );
  return wordsWithStems(text).filter((w) => !numbers.has(w.word));
}

const cuesBySegment = new Map<string, readonly string[]>(
  Object.entries(AUDIENCE_CUES).map(([segment, cues]) => [segment.toLowerCase(), cues]),
);

function fieldTexts(profile: SignalProfile): [ProfileField, string][] {
  const industry = [...(profile.industry?.keywords ?? []), ...(profile.offer ? [profile.offer] : [])];
  const audience = profile.audience.flatMap((segment) => [
    segment,
    ...(cuesBySegment.get(segment.trim().toLowerCase()) ?? []),
  ]);
  return [
    ...industry.map((text): [ProfileField, string] => ['industry', text]),
    ...profile.topicPool.map((text): [ProfileField, string] => ['topic_pool', text]),
    ...audience.map((text): [ProfileField, string] => ['audience', text]),
  ];
}

export function brandQuery(profile: SignalProfile): BrandQuery {
  const terms = new Map<string, QueryTerm>();
  for (const [field, text] of fieldTexts(profile)) {
    for (const { word, stem } of subjectWords(text)) {
      const term = terms.get(stem) ?? { weight: 0, word, fields: new Set<ProfileField>() };
      term.weight += FIELD_WEIGHTS[field];
      term.fields.add(field);
      terms.set(stem, term);
    }
  }
  return terms;
}

/** A plain text (one pool topic) as a query: each content word weighs 1 per occurrence. */
export function textQuery(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const { stem } of subjectWords(text)) weights.set(stem, (weights.get(stem) ?? 0) + 1);
  return weights;
}

export function queryWeights(query: BrandQuery): Map<string, number> {
  return new Map([...query].map(([stem, term]) => [stem, term.weight]));
}
