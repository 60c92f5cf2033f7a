// YouTube's most-popular chart through the Data API v3, only when YOUTUBE_API_KEY is set:
// GET {base}/videos?part=snippet,statistics&chart=mostPopular&regionCode=…&videoCategoryId=…&key=…
// Quota-aware: each (country, category) answer is kept for 30 minutes, so a busy radar spends at most
// 48 units a day per pair of the 10,000 a project gets; and once YouTube says the quota is spent
// (reason quotaExceeded), no call is made until it resets at midnight Pacific time.
import { z } from 'zod';
import type { GuardedResponse } from '../../platform/net/url-guard.ts';
import { SourceError } from './source-error.ts';
import {
  isOk,
  parseJsonBody,
  sourceRequest,
  statusError,
  trimBase,
  type SourceGuard,
} from './source-http.ts';
import type { SourceItem, SourceQuery, TrendCategory, TrendSource } from './source-item.ts';

export const YOUTUBE_BASE_URL = 'https://www.googleapis.com/youtube/v3';
export const YOUTUBE_CACHE_MS = 30 * 60_000;
export const YOUTUBE_MAX_RESULTS = 50;
const HOUR_MS = 3_600_000;

/** YouTube video categories (as numbered in every region) for the radar's categories it can speak for. */
export const YOUTUBE_CATEGORY_IDS: Partial<Record<TrendCategory, string>> = {
  tech: '28', // Science & Technology
  science: '28',
  entertainment: '24', // Entertainment
  sports: '17', // Sports
  politics: '25', // News & Politics
};

/** A chart video's own category, read back for queries without one. */
const VIDEO_CATEGORIES: Record<string, TrendCategory> = {
  '1': 'entertainment', // Film & Animation
  '10': 'entertainment', // Music
  '17': 'sports',
  '23': 'entertainment', // Comedy
  '24': 'entertainment',
  '28': 'tech',
};

const videoListSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      snippet: z.object({
        title: z.string(),
        publishedAt: z.string().optional(),
        channelTitle: z.string().optional(),
        categoryId: z.string().optional(),
      }),
      statistics: z
        .object({
          viewCount: z.string().optional(),
          likeCount: z.string().optional(),
          commentCount: z.string().optional(),
        })
        .optional(),
    }),
  ),
});
type Video = z.infer<typeof videoListSchema>['items'][number];

const errorSchema = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().optional(),
    errors: z.array(z.object({ reason: z.string().optional() })).optional(),
  }),
});

export interface YouTubeOptions {
  baseUrl?: string;
  timeoutMs?: number;
  clock?: () => Date;
}

/** The next midnight in America/Los_Angeles, when YouTube's daily quota resets. */
export function nextPacificMidnight(now: Date): Date {
  const pacificDay = (time: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', dateStyle: 'short' }).format(time);
  const today = pacificDay(now.getTime());
  // Pacific time is a whole number of hours from UTC, so its midnight falls on a UTC hour boundary.
  let candidate = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  while (pacificDay(candidate) === today) candidate += HOUR_MS;
  return new Date(candidate);
}

function count(raw: string | undefined): number {
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

function videoItem(video: Video, rank: number, query: SourceQuery): SourceItem {
  const views = count(video.statistics?.viewCount);
  const item: SourceItem = {
    source: 'youtube',
    kind: 'video',
    title: video.snippet.title.trim(),
    url: `https://www.youtube.com/watch?v=${encodeURIComponent(video.id)}`,
    domain: 'youtube.com',
    links: [],
    geo: query.geo,
    rank,
    traffic: { text: `${views.toLocaleString('en-US')} views`, value: views },
    engagement: {
      points: count(video.statistics?.likeCount),
      comments: count(video.statistics?.commentCount),
    },
  };
  if (video.snippet.publishedAt) item.publishedAt = new Date(video.snippet.publishedAt).toISOString();
  if (video.snippet.channelTitle) item.summary = `Video by ${video.snippet.channelTitle}`;
  const category = query.category ?? VIDEO_CATEGORIES[video.snippet.categoryId ?? ''];
  if (category) item.category = category;
  return item;
}

export class YouTubeSource implements TrendSource {
  readonly name = 'youtube' as const;
  private readonly baseUrl: string;
  private readonly clock: () => Date;
  private readonly cache = new Map<string, { items: SourceItem[]; expiresAt: number }>();
  private quotaResetsAt: number | null = null;

  constructor(
    private readonly guard: SourceGuard,
    private readonly apiKey: string,
    private readonly options: YouTubeOptions = {},
  ) {
    this.baseUrl = trimBase(options.baseUrl ?? YOUTUBE_BASE_URL);
    this.clock = options.clock ?? (() => new Date());
  }

  covers(query: SourceQuery): boolean {
    return query.category === undefined || YOUTUBE_CATEGORY_IDS[query.category] !== undefined;
  }

  async fetch(query: SourceQuery, signal: AbortSignal): Promise<SourceItem[]> {
    const now = this.clock().getTime();
    const key = `${query.geo}|${query.category ?? ''}`;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > now) return cached.items;
    if (this.quotaResetsAt !== null && now < this.quotaResetsAt) {
      throw new SourceError(
        this.name,
        'quota_exceeded',
        `daily quota spent; no calls until it resets at ${new Date(this.quotaResetsAt).toISOString()}`,
      );
    }
    const params = new URLSearchParams({
      part: 'snippet,statistics',
      chart: 'mostPopular',
      regionCode: query.geo,
      maxResults: String(YOUTUBE_MAX_RESULTS),
    });
    const categoryId = query.category ? YOUTUBE_CATEGORY_IDS[query.category] : undefined;
    if (categoryId) params.set('videoCategoryId', categoryId);
    params.set('key', this.apiKey);
    const response = await sourceRequest(
      this.guard,
      this.name,
      `${this.baseUrl}/videos?${params.toString()}`,
      {
        signal,
        timeoutMs: this.options.timeoutMs,
        headers: { accept: 'application/json' },
      },
    );
    if (!isOk(response)) throw this.failure(response, now);
    const list = parseJsonBody(this.name, response, videoListSchema);
    const items = list.items.map((video, index) => videoItem(video, index + 1, query));
    this.cache.set(key, { items, expiresAt: now + YOUTUBE_CACHE_MS });
    return items;
  }

  private failure(response: GuardedResponse, now: number): SourceError {
    let reasons: string[] = [];
    let message: string | undefined;
    try {
      const parsed = errorSchema.safeParse(JSON.parse(response.body.toString('utf8')));
      if (parsed.success) {
        reasons = (parsed.data.error.errors ?? []).flatMap((e) => (e.reason ? [e.reason] : []));
        message = parsed.data.error.message;
      }
    } catch {
      // Not YouTube's error JSON: the status alone speaks.
    }
    if (reasons.includes('quotaExceeded') || reasons.includes('dailyLimitExceeded')) {
      this.quotaResetsAt = nextPacificMidnight(new Date(now)).getTime();
      return new SourceError(
        this.name,
        'quota_exceeded',
        `daily quota spent; no calls until it resets at ${new Date(this.quotaResetsAt).toISOString()}`,
      );
    }
    const keyProblem = reasons.some((r) =>
      ['keyInvalid', 'keyExpired', 'accessNotConfigured', 'forbidden'].includes(r),
    );
    if (keyProblem || (response.status === 400 && /API key/i.test(message ?? ''))) {
      return new SourceError(
        this.name,
        'unauthorized',
        `YouTube refused the API key (${reasons.join(', ') || response.status}); check YOUTUBE_API_KEY`,
      );
    }
    if (reasons.length === 0) return statusError(this.name, response);
    const reason = response.status === 429 ? 'rate_limited' : 'http_status';
    return new SourceError(this.name, reason, `answered HTTP ${response.status} (${reasons.join(', ')})`);
  }
}
