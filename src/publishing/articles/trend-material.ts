// What a `contentType: "trend"` article is written from: the live trend the brief matches (the radar's shared
// 10-minute cache, read uncharged through the story finder of src/signals/stories/) and the publishers'
// reports it links to, fetched through the URL guard and read as article text like /videos/news reads them.
// When no trend matches, or none of its reports can be read, there is no material: the caller writes from the
// brief alone and says so in its warnings.
import { extractArticle, PageTooComplexError } from '../../modes/news/html-extract.ts';
import { decodePage } from '../../modes/news/news-source.ts';
import { ApiError } from '../../platform/errors.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { StoryFinder } from '../../signals/stories/story-finder.ts';
import { publisherOf } from '../../signals/trends/publishers.ts';

/** The radar's default country: the request has no geo field (spec 1 §4.11). */
const TREND_GEO = 'US';
/** The radar's default window. */
const TREND_WINDOW_HOURS = 24;
/** Reports read per trend: enough to compare sources, few enough to answer while the caller waits. */
const REPORTS_PER_TREND = 3;
/** The page is parsed on the API process while the caller waits, so pages are smaller than the news mode's. */
const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 15_000;

export interface SourceReport {
  url: string;
  finalUrl: string;
  /** The page's own site name, else the publisher list's name, else the domain. */
  publisher: string;
  title: string;
  paragraphs: string[];
}

export interface TrendMaterial {
  trend: { id: string; topic: string; urgency: string; startedAt: string; viralityScore: number };
  /** Every article source the trend lists, read or not. */
  sources: { title: string; url: string; domain: string }[];
  reports: SourceReport[];
  skipped: { url: string; reason: string }[];
}

export interface TrendMaterialDeps {
  stories: Pick<StoryFinder, 'find'>;
  urlGuard: Pick<UrlGuard, 'request'>;
}

async function readReport(
  guard: Pick<UrlGuard, 'request'>,
  source: { title: string; url: string; domain: string },
): Promise<SourceReport> {
  const response = await guard.request(source.url, {
    maxBytes: PAGE_MAX_BYTES,
    timeoutMs: PAGE_TIMEOUT_MS,
    headers: { accept: 'text/html,application/xhtml+xml' },
  });
  if (response.status < 200 || response.status > 299)
    throw new Error(`the page answered HTTP ${response.status}`);
  const contentType = response.headers['content-type'];
  if (contentType && !/html|xml/i.test(contentType)) throw new Error(`not a web page (${contentType})`);
  let page;
  try {
    page = extractArticle(decodePage(response.body, contentType));
  } catch (error) {
    if (error instanceof PageTooComplexError) throw new Error(`${error.message}, too complex to read`);
    throw error;
  }
  if (page.paragraphs.length === 0) throw new Error('no article text was found on the page');
  return {
    url: source.url,
    finalUrl: response.url,
    publisher: page.siteName ?? publisherOf(source.domain || new URL(response.url).hostname).name,
    title: page.title ?? source.title,
    paragraphs: page.paragraphs,
  };
}

/**
 * The most viral live trend whose headlines mention one of `keywords` (every content word of it), with its
 * reports read; `material` is undefined when none fits or none of its reports could be read, and `warnings` say
 * why in the caller's terms.
 */
export async function findTrendMaterial(
  deps: TrendMaterialDeps,
  keywords: readonly string[],
): Promise<{ material: TrendMaterial | undefined; warnings: string[] }> {
  const asked = keywords.map((k) => `"${k}"`).join(' or ');
  let found;
  try {
    found = await deps.stories.find({
      geo: TREND_GEO,
      niches: [],
      keywords,
      count: 1,
      windowHours: TREND_WINDOW_HOURS,
      breakingOnly: false,
    });
  } catch (error) {
    // The finder's refusals (no trend fits, every source down) are answers here; anything else is a fault.
    if (!(error instanceof ApiError)) throw error;
    const why =
      error.code === 'NO_STORY_AVAILABLE'
        ? `No live trend in ${TREND_GEO} in the last ${TREND_WINDOW_HOURS} hours mentions ${asked}`
        : `The live trends could not be read right now (${error.code})`;
    return {
      material: undefined,
      warnings: [`${why}: the article was written from your brief alone, as an evergreen article.`],
    };
  }
  const story = found.stories[0]!;
  const results = await Promise.allSettled(story.sources.map((source) => readReport(deps.urlGuard, source)));
  const reports: SourceReport[] = [];
  const skipped: TrendMaterial['skipped'] = [];
  for (const [i, result] of results.entries()) {
    const source = story.sources[i]!;
    if (result.status === 'rejected') {
      const reason: unknown = result.reason;
      skipped.push({ url: source.url, reason: reason instanceof Error ? reason.message : String(reason) });
    } else if (reports.length < REPORTS_PER_TREND) {
      reports.push(result.value);
    }
  }
  const warnings = [...found.warnings];
  if (skipped.length > 0)
    warnings.push(
      `${skipped.length} of the trend's ${story.sources.length} reports could not be read and were left out: ${skipped.map((s) => `${s.url} (${s.reason})`).join('; ')}.`,
    );
  if (reports.length === 0) {
    warnings.push(
      `None of the reports of the matching trend "${story.topic}" could be read: the article was written from your brief alone, as an evergreen article.`,
    );
    return { material: undefined, warnings };
  }
  return {
    material: {
      trend: {
        id: story.trendId,
        topic: story.topic,
        urgency: story.urgency,
        startedAt: story.startedAt,
        viralityScore: story.viralityScore,
      },
      sources: story.sources,
      reports,
      skipped,
    },
    warnings,
  };
}
