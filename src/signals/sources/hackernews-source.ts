// Hacker News through its public Firebase API (no key): GET {base}/topstories.json lists up to 500 story
// ids in rank order, GET {base}/item/{id}.json gives each story (title, url, score, descendants, time).
// The first 30 stories are read, 10 at a time. Hacker News is one international technology community, so
// it speaks for every geo and only for the tech category (or none).
import { z } from 'zod';
import { linkDomain } from './link-domain.ts';
import { SourceError } from './source-error.ts';
import { fetchJson, mapLimited, trimBase, type SourceGuard } from './source-http.ts';
import type { SourceItem, SourceQuery, TrendSource } from './source-item.ts';

export const HN_BASE_URL = 'https://hacker-news.firebaseio.com/v0';
export const HN_STORIES = 30;
const HN_CONCURRENCY = 10;
const DISCUSSION_URL = 'https://news.ycombinator.com/item?id=';

const topStoriesSchema = z.array(z.number().int().positive());
const itemSchema = z
  .object({
    id: z.number().int(),
    type: z.string().optional(),
    title: z.string().optional(),
    url: z.string().optional(),
    score: z.number().optional(),
    descendants: z.number().optional(),
    time: z.number().optional(),
    dead: z.boolean().optional(),
    deleted: z.boolean().optional(),
  })
  .nullable();
type HnItem = NonNullable<z.infer<typeof itemSchema>>;

export interface HackerNewsOptions {
  baseUrl?: string;
  timeoutMs?: number;
}

function storyItem(story: HnItem & { title: string }, rank: number): SourceItem {
  const discussion = `${DISCUSSION_URL}${story.id}`;
  const item: SourceItem = {
    source: 'hackernews',
    kind: 'social',
    title: story.title,
    url: discussion,
    domain: 'news.ycombinator.com',
    links: [],
    category: 'tech',
    rank,
    engagement: { points: story.score ?? 0, comments: story.descendants ?? 0 },
  };
  const articleDomain = story.url ? linkDomain(story.url) : undefined;
  if (story.url && articleDomain)
    item.links.push({ title: story.title, url: story.url, domain: articleDomain });
  if (story.time !== undefined) item.publishedAt = new Date(story.time * 1000).toISOString();
  return item;
}

export class HackerNewsSource implements TrendSource {
  readonly name = 'hackernews' as const;
  private readonly baseUrl: string;

  constructor(
    private readonly guard: SourceGuard,
    private readonly options: HackerNewsOptions = {},
  ) {
    this.baseUrl = trimBase(options.baseUrl ?? HN_BASE_URL);
  }

  covers(query: SourceQuery): boolean {
    return query.category === undefined || query.category === 'tech';
  }

  async fetch(
    _query: SourceQuery,
    signal: AbortSignal,
    warn?: (warning: string) => void,
  ): Promise<SourceItem[]> {
    const request = { signal, timeoutMs: this.options.timeoutMs };
    const ids = await fetchJson(
      this.guard,
      this.name,
      `${this.baseUrl}/topstories.json`,
      topStoriesSchema,
      request,
    );
    const top = ids.slice(0, HN_STORIES);
    let unreadable = 0;
    const stories = await mapLimited(top, HN_CONCURRENCY, async (id, index) => {
      try {
        const story = await fetchJson(
          this.guard,
          this.name,
          `${this.baseUrl}/item/${id}.json`,
          itemSchema,
          request,
        );
        // Deleted, dead and job items, and ids that vanished (null), are not stories anyone is discussing.
        if (!story || story.deleted || story.dead || story.type !== 'story' || !story.title) return null;
        return storyItem({ ...story, title: story.title }, index + 1);
      } catch (err) {
        if (signal.aborted) throw err;
        unreadable++;
        return null;
      }
    });
    if (top.length > 0 && unreadable === top.length) {
      throw new SourceError(this.name, 'unreachable', `none of the top ${top.length} stories could be read`);
    }
    if (unreadable > 0) warn?.(`Hacker News: ${unreadable} of ${top.length} top stories could not be read`);
    return stories.filter((story): story is SourceItem => story !== null);
  }
}
