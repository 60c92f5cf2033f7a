// Items into stories: single-pass clustering, as in news topic detection. Items come in time order; each
// joins the story it fits best, or founds a new one. Deterministic for a given input. An item is compared by
// its weighted keys (item-keys.ts), leaving out keys no other item has (they can match nothing and would
// only dilute its similarities); a story by its centroid, the sum of its members' keys.
//  - An item that shares an article URL with a story (its own link or one it names) joins it, before any
//    story it only resembles.
//  - An article, post or video ("content") joins a story when the cosine of its keys with the centroid is
//    at least CONTENT_SIMILARITY, they have at least MIN_SHARED_WORDS words in common (one shared word,
//    "Apple", never makes two headlines one story), and the story has more of the item's names than it
//    lacks ("Intel to appeal fine from UK watchdog" is not the story "Boeing fined by UK watchdog": it
//    shares "UK" but lacks "Intel"); a name of several words counts once.
//  - A search query or encyclopedia page title ("label": a few words naming a subject) is placed after all
//    content, in the story that covers the largest share of its words' weight, at least LABEL_COVERAGE, with
//    MIN_SHARED_WORDS words in common (one for a one-word label); a label no story covers founds its own.
// Comparing with the centroid rather than with single members keeps a chain of pairwise look-alikes from
// drifting into one story. Candidates come from an inverted index (key → stories holding it); a key found in
// more than COMMON_KEY_SHARE of the items nominates none (it still counts in the score), so 5,000 items are
// never compared pairwise.
import { ENTITY_KEY, isWordKey, NAME_KEY, type ItemKeys } from './item-keys.ts';

export const CONTENT_SIMILARITY = 0.3;
export const LABEL_COVERAGE = 0.6;
const MIN_SHARED_WORDS = 2;
const COMMON_KEY_SHARE = 0.25;
/** Below this many items every key is a fair nominee: shares mean little in a handful. */
const COMMON_KEY_MIN_ITEMS = 40;

export interface ClusterItem {
  keys: ItemKeys;
  /** Canonical article URLs (canonical-url.ts): the item's own and those it links. */
  urls: readonly string[];
  label: boolean;
}

export interface StoryCluster {
  /** Indices into the clustered items, in the order they joined. */
  members: number[];
  /** Sum of the members' weighted keys. */
  centroid: Map<string, number>;
}

/** An item as compared: keys that occur in one item only are left out, names are counted as units. */
interface Vector extends ClusterItem {
  /**
   * Its names: names of several words, and one-word names not inside those. A name no other item has is
   * left out here too: it may be the subject or a detail ("Hassabis" in a Nobel story); one that other items
   * carry is a subject somewhere, and tells this item's story from theirs.
   */
  names: string[];
}

interface Story extends StoryCluster {
  norm2: number;
  /** Whether any member names someone or something. */
  named: boolean;
}

/** How well an item fits a story: the first number decides, the second breaks ties. */
type Fit = [number, number];

function fit(item: Vector, story: Story, sharesUrl: boolean): Fit | undefined {
  let dot = 0;
  let itemNorm2 = 0;
  let words = 0;
  let wordWeight = 0;
  let sharedWords = 0;
  let sharedWordWeight = 0;
  for (const [k, w] of item.keys) {
    const c = story.centroid.get(k) ?? 0;
    dot += w * c;
    itemNorm2 += w * w;
    if (!isWordKey(k)) continue;
    words += 1;
    wordWeight += w;
    if (c > 0) {
      sharedWords += 1;
      sharedWordWeight += w;
    }
  }
  const cosine = itemNorm2 > 0 && story.norm2 > 0 ? dot / Math.sqrt(itemNorm2 * story.norm2) : 0;
  if (sharesUrl) return [2, cosine];
  if (item.label) {
    const coverage = wordWeight > 0 ? sharedWordWeight / wordWeight : 0;
    const enough = sharedWords > 0 && sharedWords >= Math.min(MIN_SHARED_WORDS, words);
    return enough && coverage >= LABEL_COVERAGE ? [coverage, dot] : undefined;
  }
  return namesAgree(item, story) && sharedWords >= MIN_SHARED_WORDS && cosine >= CONTENT_SIMILARITY
    ? [cosine, dot]
    : undefined;
}

/** A story that lacks more of an item's names than it has is another story (when both name anyone). */
function namesAgree(item: Vector, story: Story): boolean {
  if (!story.named || item.names.length === 0) return true;
  const shared = item.names.filter((k) => story.centroid.has(k)).length;
  return shared > item.names.length - shared;
}

/** Names of several words, and the one-word names that are not part of one of those. */
function nameUnits(keys: ItemKeys): string[] {
  const multiWord = [...keys.keys()].filter((k) => k.startsWith(ENTITY_KEY));
  const inMultiWord = new Set(multiWord.flatMap((k) => k.slice(ENTITY_KEY.length).split(' ')));
  const single = [...keys.keys()].filter(
    (k) => k.startsWith(NAME_KEY) && !inMultiWord.has(k.slice(NAME_KEY.length)),
  );
  return [...multiWord, ...single];
}

function better(a: Fit, b: Fit | undefined): boolean {
  return b === undefined || a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

export function clusterStories(items: readonly ClusterItem[]): StoryCluster[] {
  const stories: Story[] = [];
  const byKey = new Map<string, number[]>();
  const byUrl = new Map<string, number[]>();

  const df = new Map<string, number>();
  for (const item of items) for (const k of item.keys.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const nominates = (k: string): boolean =>
    items.length < COMMON_KEY_MIN_ITEMS || (df.get(k) ?? 0) <= COMMON_KEY_SHARE * items.length;
  // A key of one item only can match nothing; left in, it would only dilute that item's similarities.
  const shared = (k: string): boolean => (df.get(k) ?? 0) >= 2;
  const vectors: Vector[] = items.map((item) => ({
    ...item,
    keys: new Map([...item.keys].filter(([k]) => shared(k))),
    names: nameUnits(item.keys).filter(shared),
  }));

  const join = (index: number, s: number): void => {
    const item = vectors[index]!;
    const story = stories[s]!;
    story.members.push(index);
    if (item.names.length > 0) story.named = true;
    for (const [k, w] of item.keys) {
      const old = story.centroid.get(k) ?? 0;
      story.centroid.set(k, old + w);
      story.norm2 += (old + w) ** 2 - old ** 2;
      if (old === 0) {
        const list = byKey.get(k);
        if (list) list.push(s);
        else byKey.set(k, [s]);
      }
    }
    for (const url of item.urls) {
      const list = byUrl.get(url);
      if (!list) byUrl.set(url, [s]);
      else if (list.at(-1) !== s && !list.includes(s)) list.push(s);
    }
  };

  const indices = items.map((_, i) => i);
  const order = [...indices.filter((i) => !items[i]!.label), ...indices.filter((i) => items[i]!.label)];
  for (const index of order) {
    const item = vectors[index]!;
    const linked = new Set<number>();
    for (const url of item.urls) for (const s of byUrl.get(url) ?? []) linked.add(s);
    const candidates = new Set(linked);
    for (const k of item.keys.keys()) {
      if (!nominates(k)) continue;
      for (const s of byKey.get(k) ?? []) candidates.add(s);
    }
    let best: number | undefined;
    let bestFit: Fit | undefined;
    for (const s of [...candidates].sort((a, b) => a - b)) {
      const f = fit(item, stories[s]!, linked.has(s));
      if (f && better(f, bestFit)) {
        best = s;
        bestFit = f;
      }
    }
    if (best === undefined) {
      best = stories.length;
      stories.push({ members: [], centroid: new Map(), norm2: 0, named: false });
    }
    join(index, best);
  }
  return stories.map(({ members, centroid }) => ({ members, centroid }));
}
