// The trend sources a configuration switches on, and the one way to ask them together.
// - createTrendSources: keyless sources are always there (feeds, Hacker News, GDELT, Wikipedia); Reddit needs
//   its app credentials and YouTube its API key. Built once per process, so Reddit's token and YouTube's chart
//   cache and quota stop live as long as it does.
// - gatherItems: asks every source that covers a query at once, under one deadline, each failing alone: a
//   source that throws, answers late or is cancelled adds a warning naming it and joins `failed`; the others'
//   items are kept. When every consulted source failed, the caller answers 503 SIGNALS_UNAVAILABLE.
import { setMaxListeners } from 'node:events';
import type { Config } from '../../platform/config.ts';
import { DEFAULT_FEEDS } from './default-feeds.ts';
import { FeedSource } from './feed-source.ts';
import { GdeltSource } from './gdelt-source.ts';
import { HackerNewsSource } from './hackernews-source.ts';
import { RedditSource } from './reddit-source.ts';
import type { SourceGuard } from './source-http.ts';
import type { SourceItem, SourceName, SourceQuery, TrendSource } from './source-item.ts';
import { SOURCE_LABELS, SourceError } from './source-error.ts';
import { WikipediaSource } from './wikipedia-source.ts';
import { YouTubeSource } from './youtube-source.ts';

export interface TrendSourceOptions {
  /** Per request (default 8 s; source-http.ts). */
  timeoutMs?: number;
  /** For tests: the time the Wikipedia day, the Reddit token expiry and YouTube's cache are judged by. */
  clock?: () => Date;
}

export function createTrendSources(
  config: Pick<Config, 'trends'>,
  guard: SourceGuard,
  options: TrendSourceOptions = {},
): TrendSource[] {
  const { trends } = config;
  const { timeoutMs, clock } = options;
  const feeds = trends.feeds ?? DEFAULT_FEEDS;
  const sources: TrendSource[] = [];
  if (feeds.length > 0) sources.push(new FeedSource(feeds, guard, { timeoutMs }));
  sources.push(
    new HackerNewsSource(guard, { baseUrl: trends.baseUrls.hackerNews, timeoutMs }),
    new GdeltSource(guard, { baseUrl: trends.baseUrls.gdelt, timeoutMs }),
    new WikipediaSource(guard, { baseUrl: trends.baseUrls.wikimedia, timeoutMs, clock }),
  );
  if (trends.reddit) {
    sources.push(
      new RedditSource(guard, trends.reddit, { baseUrl: trends.baseUrls.reddit, timeoutMs, clock }),
    );
  }
  if (trends.youtubeApiKey) {
    sources.push(
      new YouTubeSource(guard, trends.youtubeApiKey, { baseUrl: trends.baseUrls.youtube, timeoutMs, clock }),
    );
  }
  return sources;
}

/** Long enough for the slowest source's own request timeout, short enough for an interactive radar call. */
export const GATHER_TIMEOUT_MS = 10_000;

export interface GatherResult {
  items: SourceItem[];
  /** One line per problem: a failed source, or a partial failure of one that answered (a skipped feed). */
  warnings: string[];
  /** Consulted sources that gave nothing. */
  failed: SourceName[];
  /** Sources that cover the query and were asked; every one failed when `failed` has the same length. */
  consulted: SourceName[];
}

export interface GatherOptions {
  timeoutMs?: number;
}

class GatherDeadline extends Error {}

function failureWarning(source: TrendSource, err: unknown, timeoutMs: number, signal: AbortSignal): string {
  const label = SOURCE_LABELS[source.name];
  if (err instanceof GatherDeadline) return `${label}: no answer within ${timeoutMs} ms`;
  if (err instanceof SourceError) return err.message;
  if (signal.aborted) return `${label}: cancelled`;
  return `${label}: unexpected error (${(err as Error).message})`;
}

export async function gatherItems(
  sources: readonly TrendSource[],
  query: SourceQuery,
  signal: AbortSignal,
  options: GatherOptions = {},
): Promise<GatherResult> {
  const timeoutMs = options.timeoutMs ?? GATHER_TIMEOUT_MS;
  const consulted = sources.filter((source) => source.covers(query));
  const controller = new AbortController();
  // Every request of every source listens to this one signal (Hacker News alone has ten in flight).
  setMaxListeners(256, controller.signal);
  const onCallerAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onCallerAbort();
  else signal.addEventListener('abort', onCallerAbort, { once: true });
  // A source that ignores its signal still loses the race against the deadline.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new GatherDeadline());
      controller.abort(new GatherDeadline());
    }, timeoutMs);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
      once: true,
    });
  });
  deadline.catch(() => {});
  try {
    const outcomes = await Promise.all(
      consulted.map(async (source) => {
        const warnings: string[] = [];
        try {
          const items = await Promise.race([
            source.fetch(query, controller.signal, (warning) => warnings.push(warning)),
            deadline,
          ]);
          return { source, items, warnings };
        } catch (err) {
          warnings.push(failureWarning(source, err, timeoutMs, controller.signal));
          return { source, items: null, warnings };
        }
      }),
    );
    const result: GatherResult = {
      items: [],
      warnings: [],
      failed: [],
      consulted: consulted.map((s) => s.name),
    };
    for (const outcome of outcomes) {
      result.warnings.push(...outcome.warnings);
      if (outcome.items) result.items.push(...outcome.items);
      else result.failed.push(outcome.source.name);
    }
    return result;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onCallerAbort);
  }
}
