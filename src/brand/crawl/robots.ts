import robotsParserModule from 'robots-parser';
import type { CrawlContext } from './crawl-context.ts';
import { ROBOTS_MAX_BYTES } from './crawl-limits.ts';
import { CRAWLER_USER_AGENT } from './crawler-agent.ts';
import { fetchDocument, FetchFailure } from './fetch-document.ts';

// The package is CommonJS exporting the parser function itself; its typings declare an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;
type Robot = ReturnType<typeof robotsParser>;

/** What one origin's robots.txt says, read the way RFC 9309 §2.3.1 asks. */
type OriginRules =
  | { kind: 'rules'; robot: Robot }
  /** No usable file (4xx, or larger than we read): everything may be crawled. */
  | { kind: 'allow_all' }
  /** A server error or no answer: the crawler must assume everything is disallowed. */
  | { kind: 'unreachable'; failure: FetchFailure };

/**
 * robots.txt per origin (scheme, host and port: each has its own file), fetched once through the guard
 * the first time a URL of that origin is about to be requested, and matched for the crawler's user agent.
 */
export class RobotsBook {
  private readonly byOrigin = new Map<string, Promise<OriginRules>>();

  constructor(private readonly ctx: CrawlContext) {}

  /** null when `url` may be fetched; otherwise why not ('robots', or why robots.txt could not be read). */
  async check(url: URL): Promise<FetchFailure | null> {
    const rules = await this.rules(url.origin);
    switch (rules.kind) {
      case 'allow_all':
        return null;
      case 'unreachable':
        return rules.failure;
      case 'rules':
        return rules.robot.isAllowed(url.href, CRAWLER_USER_AGENT) === false
          ? new FetchFailure('robots', `robots.txt of ${url.host} disallows this page for Reelsmith`)
          : null;
    }
  }

  /** Whether a robots.txt was found and read for this origin. */
  async found(origin: string): Promise<boolean> {
    return (await this.rules(origin)).kind === 'rules';
  }

  private rules(origin: string): Promise<OriginRules> {
    let rules = this.byOrigin.get(origin);
    if (!rules) {
      rules = this.load(origin);
      this.byOrigin.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<OriginRules> {
    const robotsUrl = new URL('/robots.txt', origin);
    try {
      const doc = await this.ctx.limit(() =>
        fetchDocument(this.ctx, robotsUrl, { maxBytes: ROBOTS_MAX_BYTES, accept: 'text/plain' }),
      );
      if (doc.status >= 500) {
        return {
          kind: 'unreachable',
          failure: new FetchFailure(
            'robots',
            `robots.txt of ${robotsUrl.host} answered HTTP ${doc.status}; until it can be read, the site counts as closed to crawlers`,
          ),
        };
      }
      if (doc.status < 200 || doc.status > 299) return { kind: 'allow_all' };
      return { kind: 'rules', robot: robotsParser(robotsUrl.href, doc.body.toString('utf8')) };
    } catch (err) {
      if (!(err instanceof FetchFailure)) throw err;
      if (err.reason === 'too_large') return { kind: 'allow_all' };
      return { kind: 'unreachable', failure: err };
    }
  }
}
