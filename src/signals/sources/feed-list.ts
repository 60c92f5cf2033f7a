// TRENDS_FEEDS: which RSS/Atom feeds the radar reads, each tagged with the category and country it speaks
// for. The setting is either a JSON array written inline (it starts with "[") or the path of a JSON file
// holding that array; it replaces the default list (default-feeds.ts). Read and checked once at start-up,
// so a typo stops the service with the entry's position instead of silently shrinking coverage.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TREND_CATEGORIES, type TrendCategory } from './source-item.ts';

export interface FeedSpec {
  /** https:// (fetched through the URL guard) or file:// (read from disk, for air-gapped installs). */
  url: string;
  /** The category the feed covers; unset for general feeds (top stories, search trends). */
  category?: TrendCategory;
  /** ISO 3166-1 alpha-2 country the feed speaks for; unset for international feeds (used for every geo). */
  geo?: string;
  /** Shown in warnings; defaults to the URL's host and path. */
  name?: string;
}

export const MAX_FEEDS = 1000;
const MAX_LIST_BYTES = 1024 * 1024;
const FEED_SCHEMES = new Set(['https:', 'http:', 'file:']);

const feedSpecSchema = z.strictObject({
  url: z.string().refine((raw) => {
    try {
      return FEED_SCHEMES.has(new URL(raw).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute https:// or file:// URL'),
  category: z.enum(TREND_CATEGORIES).optional(),
  geo: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
    .transform((geo) => geo.toUpperCase())
    .optional(),
  name: z.string().trim().min(1).max(100).optional(),
});

const feedListSchema = z.array(feedSpecSchema).max(MAX_FEEDS);

function readListFile(path: string): string {
  const full = resolve(path);
  const size = statSync(full).size;
  if (size > MAX_LIST_BYTES) throw new Error(`the file ${full} is larger than ${MAX_LIST_BYTES} bytes`);
  return readFileSync(full, 'utf8');
}

/** Parses TRENDS_FEEDS (inline JSON array or a JSON file's path); throws an Error naming the problem. */
export function parseFeedList(
  setting: string,
  readText: (path: string) => string = readListFile,
): FeedSpec[] {
  const trimmed = setting.trim();
  let text: string;
  try {
    text = trimmed.startsWith('[') ? trimmed : readText(trimmed);
  } catch (err) {
    throw new Error(`TRENDS_FEEDS: cannot read ${trimmed}: ${(err as Error).message}`, { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`TRENDS_FEEDS: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const parsed = feedListSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `entry ${issue.path.join('.')}` : 'the list';
    throw new Error(`TRENDS_FEEDS: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.map((entry) => {
    const feed: FeedSpec = { url: entry.url };
    if (entry.category) feed.category = entry.category;
    if (entry.geo) feed.geo = entry.geo;
    if (entry.name) feed.name = entry.name;
    return feed;
  });
}

/** The feeds that speak for a query: its country or international, its category or general. */
export function feedsFor(feeds: readonly FeedSpec[], geo: string, category?: TrendCategory): FeedSpec[] {
  return feeds.filter(
    (feed) =>
      (feed.geo === undefined || feed.geo === geo) &&
      (category === undefined || feed.category === undefined || feed.category === category),
  );
}
