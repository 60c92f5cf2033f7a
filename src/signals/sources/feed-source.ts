// The RSS/Atom feeds of TRENDS_FEEDS (or the default list) as one trend source. Each feed fails alone: a dead,
// oversized, hostile or malformed feed is skipped with a warning naming it, and the source fails only when
// every feed it tried failed. https feeds go through the URL guard; file:// feeds (air-gapped installs) are
// read from disk under the same byte cap.
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { feedItems } from './feed-items.ts';
import { feedsFor, type FeedSpec } from './feed-list.ts';
import { FeedParseError, parseFeed } from './feed-xml.ts';
import { SourceError } from './source-error.ts';
import { mapLimited, SOURCE_TIMEOUT_MS, TRENDS_USER_AGENT, type SourceGuard } from './source-http.ts';
import type { SourceItem, SourceQuery, TrendSource } from './source-item.ts';

/** Real feeds are tens to hundreds of kilobytes; anything past this is not a feed worth reading. */
export const FEED_MAX_BYTES = 2 * 1024 * 1024;
export const FEED_CONCURRENCY = 16;
/** The most feeds read for one query (the default list holds about 45 for the US with no category). */
export const MAX_FEEDS_PER_QUERY = 60;
export const MAX_ENTRIES_PER_FEED = 50;

export interface FeedSourceOptions {
  timeoutMs?: number;
  maxBytes?: number;
  concurrency?: number;
}

/** Why one feed was skipped, in words fit for a warning. */
class FeedFailure extends Error {}

export function feedLabel(spec: FeedSpec): string {
  if (spec.name) return spec.name;
  try {
    const url = new URL(spec.url);
    return url.protocol === 'file:' ? url.pathname : `${url.host}${url.pathname}`;
  } catch {
    return 'feed';
  }
}

async function readFeedFile(url: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(fileURLToPath(url), 'r');
  try {
    if (!(await handle.stat()).isFile()) throw new FeedFailure('not a regular file');
    // Read one byte past the cap rather than trusting the size: the file may grow while it is read.
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw new FeedFailure(`the file is larger than ${maxBytes} bytes`);
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

function failureReason(err: unknown): string {
  if (err instanceof FeedFailure || err instanceof FeedParseError || err instanceof UrlRejectedError)
    return err.message;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return `cannot read the file (${code})`;
  return `unexpected error (${(err as Error).message})`;
}

export class FeedSource implements TrendSource {
  readonly name = 'feed' as const;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly concurrency: number;

  constructor(
    private readonly feeds: readonly FeedSpec[],
    private readonly guard: SourceGuard,
    options: FeedSourceOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? SOURCE_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
    this.concurrency = options.concurrency ?? FEED_CONCURRENCY;
  }

  covers(query: SourceQuery): boolean {
    return feedsFor(this.feeds, query.geo, query.category).length > 0;
  }

  async fetch(
    query: SourceQuery,
    signal: AbortSignal,
    warn?: (warning: string) => void,
  ): Promise<SourceItem[]> {
    const selected = feedsFor(this.feeds, query.geo, query.category).slice(0, MAX_FEEDS_PER_QUERY);
    const outcomes = await mapLimited(selected, this.concurrency, async (spec) => {
      try {
        if (signal.aborted) throw new FeedFailure('not read: the radar stopped waiting');
        const [bytes, contentType] = await this.read(spec, signal);
        return { spec, items: feedItems(parseFeed(bytes, contentType, MAX_ENTRIES_PER_FEED), spec) };
      } catch (err) {
        return { spec, failure: failureReason(err) };
      }
    });
    const items: SourceItem[] = [];
    const failures: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.items) items.push(...outcome.items);
      else {
        const warning = `feed "${feedLabel(outcome.spec)}" skipped: ${outcome.failure}`;
        failures.push(warning);
        warn?.(warning);
      }
    }
    if (selected.length > 0 && failures.length === selected.length) {
      throw new SourceError(
        'feed',
        'unreachable',
        `every feed failed (${failures.length}); first: ${failures[0]}`,
      );
    }
    return items;
  }

  /** The feed's bytes and declared content type. */
  private async read(spec: FeedSpec, signal: AbortSignal): Promise<[Buffer, string | undefined]> {
    if (spec.url.startsWith('file:')) return [await readFeedFile(spec.url, this.maxBytes), undefined];
    const response = await this.guard.request(spec.url, {
      headers: {
        'user-agent': TRENDS_USER_AGENT,
        accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1',
      },
      timeoutMs: this.timeoutMs,
      maxBytes: this.maxBytes,
      signal,
    });
    if (response.status < 200 || response.status > 299)
      throw new FeedFailure(`answered HTTP ${response.status}`);
    return [response.body, response.headers['content-type']];
  }
}
