// A story's id and its topic line.
//
// id: "trd_" and 16 hex digits of SHA-256 over the story's strongest keys: the ID_KEYS names of several words
// or key phrases carried by the most of its items (ties by text); its words when it has fewer. A refresh that
// adds or drops some items leaves what most items share in place, so a story keeps its id while it trends; a
// story seen in one item only gets a new id once others join it.
//
// topic: the headline of the article, post or video nearest the story's centroid (ties: a primary
// publisher's, then the earliest); a story made of search trends and pages alone reads as the first headline
// they link to, or as the query or page title itself.
import { createHash } from 'node:crypto';
import { isWordKey } from './item-keys.ts';
import { headline } from './headline.ts';
import { publisherOf } from './publishers.ts';
import type { Story, StoryItem } from './story.ts';

export const ID_KEYS = 2;

/**
 * The story's keys strongest first: names of several words and phrases before single words, then by how many
 * of its items carry them, then by text.
 */
export function rankedKeys(story: Story): string[] {
  const counts = new Map<string, number>();
  for (const { keys } of story.items) for (const k of keys.keys()) counts.set(k, (counts.get(k) ?? 0) + 1);
  const isWord = (k: string): number => (isWordKey(k) ? 1 : 0);
  return [...counts.keys()].sort(
    (a, b) => isWord(a) - isWord(b) || counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0),
  );
}

export function storyId(keys: readonly string[], count = ID_KEYS): string {
  const chosen = keys.slice(0, count).sort().join('\n');
  return `trd_${createHash('sha256').update(chosen).digest('hex').slice(0, 16)}`;
}

function cosine(item: StoryItem, centroid: ReadonlyMap<string, number>): number {
  let dot = 0;
  let norm2 = 0;
  for (const [k, w] of item.keys) {
    dot += w * (centroid.get(k) ?? 0);
    norm2 += w * w;
  }
  return norm2 > 0 ? dot / Math.sqrt(norm2) : 0;
}

function isPrimary(domain: string | undefined): boolean {
  return domain !== undefined && publisherOf(domain).class === 'primary';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function storyTopic(story: Story): string {
  const content = story.items.filter((s) => s.item.kind !== 'search' && s.item.kind !== 'encyclopedia');
  const scored = content.map((s) => ({
    s,
    fit: cosine(s, story.centroid),
    primary: isPrimary(s.item.domain) ? 1 : 0,
  }));
  scored.sort(
    (a, b) =>
      b.fit - a.fit ||
      b.primary - a.primary ||
      (a.s.at ?? Number.MAX_SAFE_INTEGER) - (b.s.at ?? Number.MAX_SAFE_INTEGER) ||
      a.s.headline.localeCompare(b.s.headline),
  );
  const best = scored[0];
  if (best && best.s.headline !== '') return best.s.headline;
  const links = story.items.flatMap((s) => s.item.links);
  const link = links.find((l) => isPrimary(l.domain)) ?? links[0];
  if (link && link.title.trim() !== '') return headline(link.title, link.domain);
  return capitalised(story.items[0]?.headline ?? '');
}
