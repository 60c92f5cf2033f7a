// The keys an item is compared by: its content words ("t:"), the words among them that are names ("n:"),
// its names of several words ("e:") and its key phrases ("p:"), each weighted by its rarity among the items
// being clustered (inverse document frequency, ln(1 + N / df)), so "iphone" outweighs "says".
//  - A word the tagger reads as a name in at least half the headlines that use it ("netflix", "milton") is
//    a name in all of them and weighs NAME_BOOST times a word: the subject is what tells "Netflix shares
//    move after results" from "Uber shares move after results". Deciding over the whole batch keeps one
//    word one key, whether or not a given headline's capitals let the tagger see the name.
//  - Names of several words count 1.5 times and phrases 1.25 times a word of the same rarity: sharing
//    "tim cook" or "interest rate" says more than sharing "cook" or "rate".
import type { TextFeatures } from './text-features.ts';

export const TERM_KEY = 't:';
export const NAME_KEY = 'n:';
export const ENTITY_KEY = 'e:';
export const PHRASE_KEY = 'p:';
const NAME_BOOST = 2;
const NAME_SHARE = 0.5;
const ENTITY_BOOST = 1.5;
const PHRASE_BOOST = 1.25;

/** A single word of the headline, a name or not. */
export function isWordKey(key: string): boolean {
  return key.startsWith(TERM_KEY) || key.startsWith(NAME_KEY);
}

export type ItemKeys = Map<string, number>;

function keysOf(f: TextFeatures, names: ReadonlySet<string>): string[] {
  return [
    ...f.terms.map((t) => (names.has(t) ? NAME_KEY : TERM_KEY) + t),
    ...f.entities.map((e) => ENTITY_KEY + e),
    ...f.phrases.map((p) => PHRASE_KEY + p),
  ];
}

/** Words tagged as a name in at least NAME_SHARE of the headlines that use them. */
function batchNames(features: readonly TextFeatures[]): Set<string> {
  const used = new Map<string, number>();
  const named = new Map<string, number>();
  for (const f of features) {
    for (const t of f.terms) used.set(t, (used.get(t) ?? 0) + 1);
    for (const t of f.nameTerms) named.set(t, (named.get(t) ?? 0) + 1);
  }
  return new Set([...named].filter(([t, n]) => n >= NAME_SHARE * (used.get(t) ?? 1)).map(([t]) => t));
}

export function weightedKeys(features: readonly TextFeatures[]): ItemKeys[] {
  const names = batchNames(features);
  const keyLists = features.map((f) => keysOf(f, names));
  const df = new Map<string, number>();
  for (const keys of keyLists) for (const k of keys) df.set(k, (df.get(k) ?? 0) + 1);
  const boost = (k: string): number =>
    k.startsWith(NAME_KEY)
      ? NAME_BOOST
      : k.startsWith(ENTITY_KEY)
        ? ENTITY_BOOST
        : k.startsWith(PHRASE_KEY)
          ? PHRASE_BOOST
          : 1;
  const n = features.length;
  return keyLists.map((keys) => {
    const weighted: ItemKeys = new Map();
    for (const k of keys) weighted.set(k, Math.log(1 + n / (df.get(k) ?? 1)) * boost(k));
    return weighted;
  });
}
