// How a trend source fails: one error type naming the source and why, so the radar can report a dead
// source in a warning ("Hacker News: answered HTTP 503") and carry on with the others.
import type { SourceName } from './source-item.ts';

export type SourceErrorReason =
  /** The host could not be reached, refused by the URL guard, or the connection failed. */
  | 'unreachable'
  | 'timeout'
  /** A status the client does not handle (5xx, unexpected 4xx). */
  | 'http_status'
  /** The answer was not in the source's documented format. */
  | 'bad_response'
  | 'too_large'
  /** Credentials were refused (REDDIT_CLIENT_ID/SECRET, YOUTUBE_API_KEY). */
  | 'unauthorized'
  | 'rate_limited'
  /** YouTube's daily quota is spent; no call is made until it resets. */
  | 'quota_exceeded'
  /** The source answered but holds nothing for the query (e.g. Wikimedia has not published the day yet). */
  | 'no_data';

export const SOURCE_LABELS: Record<SourceName, string> = {
  feed: 'Feeds',
  hackernews: 'Hacker News',
  gdelt: 'GDELT',
  wikipedia: 'Wikipedia',
  reddit: 'Reddit',
  youtube: 'YouTube',
};

export class SourceError extends Error {
  constructor(
    readonly source: SourceName,
    readonly reason: SourceErrorReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${SOURCE_LABELS[source]}: ${detail}`, options);
    this.name = 'SourceError';
  }
}
