// The refusals of news from real stories (docs/modes.md, news). Free: they answer before anything is charged.
import { ApiError } from '../../platform/errors.ts';
import { TREND_ID_MAX_AGE_HOURS } from './cached-trends-repo.ts';

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

export interface NoStoryContext {
  geo: string;
  niches: readonly string[];
  keywords: readonly string[];
  windowHours: number;
  breakingOnly: boolean;
}

export const storyErrors = {
  /** The radar answered, but no trend fits the request (or none has an article to read). */
  noStory: (c: NoStoryContext) => {
    const asked = [
      c.niches.length > 0 ? `niches ${quoted(c.niches)}` : '',
      c.keywords.length > 0 ? `keywords ${quoted(c.keywords)}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return new ApiError(
      422,
      'NO_STORY_AVAILABLE',
      `No ${c.breakingOnly ? 'breaking ' : ''}story with articles to read is trending${asked ? ` for ${asked}` : ''} in ${c.geo} in the last ${c.windowHours} hours. Nothing was charged. Send a sourceUrl to make the video from an article of your choice, or try other niches or keywords.`,
      {
        details: {
          geo: c.geo,
          niches: c.niches,
          keywords: c.keywords,
          window_hours: c.windowHours,
          breaking_only: c.breakingOnly,
        },
      },
    );
  },
  /** A trend whose sources are only aggregator links, posts or search pages: nothing to narrate from. */
  noArticles: (trendId: string, topic: string) =>
    new ApiError(
      422,
      'NO_STORY_AVAILABLE',
      `Trend ${trendId} ("${topic}") has no publisher's article to read the news from. Nothing was charged. Send a sourceUrl, or another trend_id.`,
      { details: { trend_id: trendId } },
    ),
  trendNotFound: (trendId: string) =>
    new ApiError(
      404,
      'TREND_NOT_FOUND',
      `No cached trend has the id ${trendId}: trend ids resolve while the radar's cache lists them (up to ${TREND_ID_MAX_AGE_HOURS} hours, as long as the story is still trending). Nothing was charged. Read current ids from GET /api/v1/trends/radar.`,
      { details: { trend_id: trendId } },
    ),
};
