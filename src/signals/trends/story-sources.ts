// sources[]: the articles and posts behind a story, one per canonical URL (canonical-url.ts). Articles first
// (news items and the articles other items link): primary publishers, then others, then aggregators; then
// posts, videos, pages and search-trend pages; newest first within each. At most MAX_SOURCES.
import { linkDomain } from '../sources/link-domain.ts';
import { canonicalUrl } from './canonical-url.ts';
import { headline } from './headline.ts';
import { publisherOf } from './publishers.ts';
import type { StoryItem } from './story.ts';
import type { Trend } from './trend.ts';

export const MAX_SOURCES = 20;

type Source = Trend['sources'][number];

interface Candidate {
  source: Source;
  group: number;
  at: number | undefined;
  /** The item's own URL, rather than a link it names (whose title may be the linking post's). */
  own: boolean;
}

function articleGroup(domain: string): number {
  switch (publisherOf(domain).class) {
    case 'primary':
      return 0;
    case 'other':
      return 1;
    case 'aggregator':
      return 2;
    case 'platform':
      return 3;
  }
}

export function storySources(items: readonly StoryItem[]): Source[] {
  const candidates: Candidate[] = [];
  for (const { item, headline: title, at } of items) {
    for (const link of item.links) {
      const domain = link.domain || linkDomain(link.url) || '';
      candidates.push({
        source: { title: headline(link.title, domain), url: link.url, domain },
        group: articleGroup(domain),
        at,
        own: false,
      });
    }
    if (!item.url) continue;
    const domain = item.domain ?? linkDomain(item.url) ?? '';
    const group = item.kind === 'news' ? articleGroup(domain) : 3;
    candidates.push({ source: { title, url: item.url, domain }, group, at, own: true });
  }
  const byUrl = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const key = canonicalUrl(candidate.source.url);
    if (key === undefined) continue;
    const seen = byUrl.get(key);
    if (!seen || (candidate.own && !seen.own)) byUrl.set(key, candidate);
  }
  return [...byUrl.values()]
    .sort(
      (a, b) => a.group - b.group || (b.at ?? -1) - (a.at ?? -1) || a.source.url.localeCompare(b.source.url),
    )
    .slice(0, MAX_SOURCES)
    .map((c) => c.source);
}
