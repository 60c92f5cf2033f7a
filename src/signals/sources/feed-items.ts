// Feed entries as source items. An entry carrying Google Trends' ht:approx_traffic is a search trend: its
// traffic becomes `traffic` ({ text: '200,000+', value: 200000 }) and its ht:news_item articles become `links`.
// Any other entry is a news article, credited to the publisher an aggregator names (<source url>) or else to
// its own link's domain.
import type { FeedSpec } from './feed-list.ts';
import type { FeedEntry, ParsedFeed } from './feed-xml.ts';
import { linkDomain } from './link-domain.ts';
import type { ItemLink, SourceItem } from './source-item.ts';

const MULTIPLIERS: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9 };

/** "200,000+" → 200000, "2M+" → 2000000, "1.5K+" → 1500, "20 000+" → 20000; undefined when unreadable. */
export function parseTraffic(text: string): { text: string; value: number } | undefined {
  const compact = text.replace(/[\s\u00a0\u202f+]/g, '');
  const match = /^(\d+(?:[.,]\d+)*)([KMB])?$/i.exec(compact);
  if (!match?.[1]) return undefined;
  const [, digits, suffix] = match;
  const value = suffix
    ? Math.round(Number(digits.replace(',', '.')) * (MULTIPLIERS[suffix.toUpperCase()] ?? 1))
    : Number(digits.replace(/[.,]/g, ''));
  return Number.isFinite(value) && value > 0 ? { text: text.trim(), value } : undefined;
}

/** "Solara recalls SUVs - Reuters" → "Solara recalls SUVs" when the entry credits Reuters. */
function withoutPublisherSuffix(title: string, publisher: string | undefined): string {
  if (!publisher) return title;
  for (const dash of [' - ', ' – ', ' — ', ' | ']) {
    const suffix = `${dash}${publisher}`;
    if (title.endsWith(suffix) && title.length > suffix.length) return title.slice(0, -suffix.length).trim();
  }
  return title;
}

function newsLinks(entry: FeedEntry): ItemLink[] {
  const links: ItemLink[] = [];
  for (const news of entry.newsItems) {
    const domain = linkDomain(news.url);
    if (domain) links.push({ title: news.title, url: news.url, domain });
  }
  return links;
}

function tagged(item: SourceItem, spec: FeedSpec): SourceItem {
  if (spec.geo) item.geo = spec.geo;
  if (spec.category) item.category = spec.category;
  return item;
}

export function feedItems(feed: ParsedFeed, spec: FeedSpec): SourceItem[] {
  const feedDomain = spec.url.startsWith('file:') ? undefined : linkDomain(spec.url);
  let searchRank = 0;
  return feed.entries.map((entry) => {
    if (entry.approxTraffic !== undefined) {
      const item: SourceItem = {
        source: 'feed',
        kind: 'search',
        title: entry.title,
        links: newsLinks(entry),
      };
      item.rank = ++searchRank;
      // Google repeats the feed's own address as every item's link: it names the feed, not the search.
      if (entry.link && entry.link !== feed.link) item.url = entry.link;
      if (feedDomain) item.domain = feedDomain;
      const traffic = parseTraffic(entry.approxTraffic);
      if (traffic) item.traffic = traffic;
      if (entry.publishedAt) item.publishedAt = entry.publishedAt;
      if (entry.summary) item.summary = entry.summary;
      return tagged(item, spec);
    }
    const item: SourceItem = {
      source: 'feed',
      kind: 'news',
      title: withoutPublisherSuffix(entry.title, entry.source?.name),
      links: newsLinks(entry),
    };
    if (entry.link) item.url = entry.link;
    const domain =
      (entry.source?.url && linkDomain(entry.source.url)) || (entry.link && linkDomain(entry.link));
    if (domain) item.domain = domain;
    if (entry.publishedAt) item.publishedAt = entry.publishedAt;
    // Google News describes an article by repeating its title and publisher: that says nothing more.
    if (entry.summary && !entry.summary.startsWith(item.title)) item.summary = entry.summary;
    return tagged(item, spec);
  });
}
