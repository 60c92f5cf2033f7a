import { isStopWord, tokenize, wordStems, stem } from '../../media/footage/text-match.ts';
import { publisherOf } from '../trends/publishers.ts';
import type { Trend } from '../trends/trend.ts';

// Which trends a news video can be made from, and which of them a caller's keywords point at.

export type StorySource = Trend['sources'][number];

/**
 * The trend's sources that are articles a publisher wrote, in the trend's order (primary publishers first):
 * the pages the narration is read from. An aggregator's link (a Google News redirect) and a platform's page (a
 * Reddit thread, a video, a search-trend page, an encyclopedia entry) are not the story's reporting.
 */
export function articleSources(trend: Trend): StorySource[] {
  return trend.sources.filter((source) => {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    const publisher = publisherOf(url.hostname);
    return publisher.class !== 'aggregator' && publisher.class !== 'platform';
  });
}

/** Content-word stems of a keyword ("battery recycling" → batter, recycl); all of them must occur. */
function keywordStems(keyword: string): string[] {
  return tokenize(keyword)
    .filter((word) => !isStopWord(word))
    .map(stem);
}

/** The keywords (as sent) whose every content word occurs in the trend's topic or its sources' titles. */
export function matchedKeywords(trend: Trend, keywords: readonly string[]): string[] {
  const text = new Set(wordStems([trend.topic, ...trend.sources.map((s) => s.title)].join(' ')));
  return keywords.filter((keyword) => {
    const stems = keywordStems(keyword);
    return stems.length > 0 && stems.every((s) => text.has(s));
  });
}
