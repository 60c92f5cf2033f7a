// What every trend source yields: one observed item (a search trend, an article, a post, a page, a video),
// in one shape, so the trends engine (src/signals/trends/) clusters and scores items from any source alike.

export type SourceName = 'feed' | 'hackernews' | 'gdelt' | 'wikipedia' | 'reddit' | 'youtube';

/** Which of the five score signals an item speaks to. */
export type ItemKind = 'search' | 'news' | 'social' | 'encyclopedia' | 'video';

export const TREND_CATEGORIES = [
  'tech',
  'business',
  'entertainment',
  'sports',
  'health',
  'politics',
  'science',
] as const;
export type TrendCategory = (typeof TREND_CATEGORIES)[number];

export interface ItemLink {
  title: string;
  url: string;
  /** Host without "www.", e.g. "reuters.com". */
  domain: string;
}

export interface SourceItem {
  source: SourceName;
  kind: ItemKind;
  title: string;
  /** The item's own link (the article, the post, the page), when it has one. */
  url?: string;
  /** The publisher's domain for news; the community or site otherwise (e.g. "news.ycombinator.com"). */
  domain?: string;
  /** Related articles the source names (Google Trends' ht:news_item, a post's linked article). */
  links: ItemLink[];
  publishedAt?: string;
  /** ISO 3166-1 alpha-2 country the item was observed for, when the source is per country. */
  geo?: string;
  category?: TrendCategory;
  /** Position in the source's own ranking (1 = top), when it ranks. */
  rank?: number;
  /** Search or view volume as the source states it (e.g. Google's "200,000+", Wikipedia's daily views). */
  traffic?: { text: string; value: number };
  /** Social engagement: points/upvotes/likes, comments, and their age for velocity. */
  engagement?: { points: number; comments: number };
  summary?: string;
}

export interface SourceQuery {
  geo: string;
  category?: TrendCategory;
  windowHours: number;
}

/** One trend source; fails alone (throws), and the radar reports it in a warning. */
export interface TrendSource {
  readonly name: SourceName;
  /** Whether this source can answer for the query (e.g. per-country sources, configured credentials). */
  covers(query: SourceQuery): boolean;
  /**
   * `warn` hears partial failures that still leave an answer (one feed of many skipped, one Hacker News item
   * unreadable); a failure of the whole source throws a SourceError instead.
   */
  fetch(query: SourceQuery, signal: AbortSignal, warn?: (warning: string) => void): Promise<SourceItem[]>;
}
