import { ApiError } from '../../platform/errors.ts';
import { BREAKING_WINDOW_HOURS } from '../../signals/radar/radar-query.ts';
import type { StoryFinder } from '../../signals/stories/story-finder.ts';
import type { NewsRequest } from './news-request.ts';
import type { NewsFormat } from './news-summary.ts';

// Which real stories a news request without sourceUrl is made from, decided before anything is charged
// (src/signals/stories/). Each format reads a number of stories from a window: one story for single and
// breaking (breaking: urgency breaking, last 18 h, as GET /trends/breaking), a few for digest and headlines
// (last 24 h, the radar's default), the week's biggest for weekly.

export const STORY_PLANS: Readonly<
  Record<NewsFormat, { count: number; windowHours: number; breakingOnly: boolean }>
> = {
  single: { count: 1, windowHours: 24, breakingOnly: false },
  breaking: { count: 1, windowHours: BREAKING_WINDOW_HOURS, breakingOnly: true },
  digest: { count: 3, windowHours: 24, breakingOnly: false },
  headlines: { count: 5, windowHours: 24, breakingOnly: false },
  weekly: { count: 5, windowHours: 168, breakingOnly: false },
};

/** A process built without the radar (the render CLI) cannot find stories; the API and workers always can. */
function radarMissing(): ApiError {
  return new ApiError(
    503,
    'SIGNALS_UNAVAILABLE',
    'Trending stories cannot be read by this process. Nothing was charged; send a sourceUrl.',
    { retryable: false },
  );
}

/** The request with its stories found: the trend `trendId` names, or the best for its niches and keywords. */
export async function withStories(
  request: NewsRequest,
  finder: StoryFinder | undefined,
): Promise<NewsRequest> {
  if (request.sourceUrl) return request;
  if (!finder) throw radarMissing();
  if (request.trendId) {
    return { ...request, stories: [await finder.byId(request.trendId, request.keywords)] };
  }
  const plan = STORY_PLANS[request.format];
  const found = await finder.find({
    geo: request.geo,
    niches: request.niches,
    keywords: request.keywords,
    ...plan,
  });
  const fewer =
    found.stories.length < plan.count
      ? [
          `Only ${found.stories.length} of the ${plan.count} stories a ${request.format} holds fit the request; the video tells ${found.stories.length === 1 ? 'that one' : 'those'}.`,
        ]
      : [];
  const warnings = [...found.warnings, ...fewer];
  return {
    ...request,
    stories: found.stories,
    ...(warnings.length > 0 ? { storyWarnings: warnings } : {}),
  };
}
