// A client for Pexels' video search API (GET {base}/videos/search, "Authorization: <key>"), used as an
// optional stock-footage provider: it turns a query into portrait clips ready to download. Every request
// goes through the URL guard; the base URL is a parameter so tests can point it at a local server.

import { z } from 'zod';
import type { FootageProvider, StockVideoCandidate } from '../media/library/provider-footage.ts';
import { UrlRejectedError, type UrlGuard } from '../platform/net/url-guard.ts';

export const PEXELS_BASE_URL = 'https://api.pexels.com';
/** Pexels' own ceiling for per_page. */
export const PEXELS_MAX_PER_PAGE = 80;
/** The frame the stock engine renders; files are chosen to cover it without fetching 4K needlessly. */
const TARGET_HEIGHT = 1920;
const UHD_HEIGHT = 2160;
const MIN_GOOD_HEIGHT = 1280;

export interface PexelsSettings {
  apiKey: string;
  /** Default https://api.pexels.com. */
  baseUrl?: string;
  timeoutMs?: number;
}

export interface PexelsVideoFile {
  id: number;
  quality: string | null;
  fileType: string;
  width: number;
  height: number;
  fps: number | null;
  link: string;
}

export interface PexelsVideo {
  id: number;
  /** The video's page on pexels.com. */
  pageUrl: string;
  width: number;
  height: number;
  durationSec: number;
  author: { name: string; url: string | null };
  files: PexelsVideoFile[];
}

export interface PexelsSearchPage {
  page: number;
  perPage: number;
  totalResults: number;
  videos: PexelsVideo[];
}

export type PexelsOrientation = 'portrait' | 'landscape' | 'square';

export interface PexelsSearch {
  query: string;
  orientation?: PexelsOrientation;
  perPage?: number;
  page?: number;
  signal?: AbortSignal;
}

export type PexelsErrorKind =
  'unauthorized' | 'rate_limited' | 'unavailable' | 'refused' | 'bad_response' | 'fetch_failed';

export class PexelsError extends Error {
  constructor(
    readonly kind: PexelsErrorKind,
    message: string,
    readonly status?: number,
    /** Seconds until the quota resets, for rate_limited. */
    readonly retryAfterSec?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PexelsError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable' || this.kind === 'fetch_failed';
  }
}

const fileSchema = z.object({
  id: z.number(),
  quality: z.string().nullable().optional(),
  file_type: z.string().nullable().optional(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  fps: z.number().nullable().optional(),
  link: z.string(),
});

const searchSchema = z.object({
  page: z.number().optional(),
  per_page: z.number().optional(),
  total_results: z.number().optional(),
  videos: z.array(
    z.object({
      id: z.number(),
      url: z.string(),
      width: z.number().nullable().optional(),
      height: z.number().nullable().optional(),
      duration: z.number(),
      user: z.object({ name: z.string(), url: z.string().nullable().optional() }).optional(),
      video_files: z.array(fileSchema),
    }),
  ),
});

/**
 * The file to download for a portrait render: among portrait MP4 files, the smallest that is at least
 * 1920 px tall (but not beyond 2160), else the tallest from 1280 px up, else the smallest taller still,
 * else the tallest there is.
 */
export function choosePortraitFile(files: readonly PexelsVideoFile[]): PexelsVideoFile | undefined {
  const isMp4 = (f: PexelsVideoFile) =>
    f.fileType ? f.fileType === 'video/mp4' : /\.mp4(\?|$)/i.test(f.link);
  const portrait = files.filter((f) => f.height > f.width && isMp4(f));
  const byHeight = [...portrait].sort((a, b) => a.height - b.height);
  return (
    byHeight.find((f) => f.height >= TARGET_HEIGHT && f.height <= UHD_HEIGHT) ??
    byHeight.filter((f) => f.height >= MIN_GOOD_HEIGHT && f.height < TARGET_HEIGHT).pop() ??
    byHeight.find((f) => f.height > UHD_HEIGHT) ??
    byHeight.pop()
  );
}

/** "https://www.pexels.com/video/waves-on-a-beach-2499611/" → "waves on a beach". */
export function titleFromPexelsUrl(pageUrl: string, id: number): string {
  let slug = '';
  try {
    slug = new URL(pageUrl).pathname.split('/').filter(Boolean).pop() ?? '';
  } catch {
    slug = '';
  }
  const words = slug
    .replace(new RegExp(`-?${id}$`), '')
    .split('-')
    .filter((w) => /^[a-z0-9]+$/i.test(w));
  return words.length > 0 ? words.join(' ').toLowerCase() : `Pexels video ${id}`;
}

function retryAfter(headers: Record<string, string>): number | undefined {
  const reset = Number(headers['x-ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  const seconds = Number(headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function statusError(status: number, headers: Record<string, string>): PexelsError {
  if (status === 401 || status === 403) {
    return new PexelsError(
      'unauthorized',
      `Pexels refused the API key (HTTP ${status}); check PEXELS_API_KEY`,
      status,
    );
  }
  if (status === 429) {
    const wait = retryAfter(headers);
    return new PexelsError(
      'rate_limited',
      `Pexels rate limit reached${wait ? `; resets in ${wait} s` : ''}`,
      status,
      wait,
    );
  }
  if (status >= 500) return new PexelsError('unavailable', `Pexels answered HTTP ${status}`, status);
  return new PexelsError('refused', `Pexels refused the search (HTTP ${status})`, status);
}

export class PexelsClient implements FootageProvider {
  readonly name = 'pexels';
  readonly licence = 'Pexels License (https://www.pexels.com/license/)';
  private readonly baseUrl: string;

  constructor(private readonly settings: PexelsSettings) {
    this.baseUrl = (settings.baseUrl ?? PEXELS_BASE_URL).replace(/\/+$/, '');
  }

  async searchVideos(guard: Pick<UrlGuard, 'request'>, search: PexelsSearch): Promise<PexelsSearchPage> {
    const params = new URLSearchParams({ query: search.query });
    if (search.orientation) params.set('orientation', search.orientation);
    params.set('per_page', String(Math.min(PEXELS_MAX_PER_PAGE, Math.max(1, search.perPage ?? 15))));
    if (search.page) params.set('page', String(search.page));
    let response;
    try {
      response = await guard.request(`${this.baseUrl}/videos/search?${params.toString()}`, {
        headers: { authorization: this.settings.apiKey, accept: 'application/json' },
        timeoutMs: this.settings.timeoutMs ?? 15_000,
        signal: search.signal,
      });
    } catch (error) {
      if (error instanceof UrlRejectedError) {
        throw new PexelsError(
          'fetch_failed',
          `Pexels could not be reached: ${error.message}`,
          undefined,
          undefined,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    if (response.status < 200 || response.status > 299) throw statusError(response.status, response.headers);
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new PexelsError(
        'bad_response',
        'Pexels answered with something that is not JSON',
        response.status,
      );
    }
    const parsed = searchSchema.safeParse(json);
    if (!parsed.success) {
      throw new PexelsError(
        'bad_response',
        'Pexels answered without a videos list of the documented shape',
        response.status,
      );
    }
    const data = parsed.data;
    return {
      page: data.page ?? 1,
      perPage: data.per_page ?? data.videos.length,
      totalResults: data.total_results ?? data.videos.length,
      videos: data.videos.map((v) => ({
        id: v.id,
        pageUrl: v.url,
        width: v.width ?? 0,
        height: v.height ?? 0,
        durationSec: v.duration,
        author: { name: v.user?.name ?? 'unknown', url: v.user?.url ?? null },
        files: v.video_files.map((f) => ({
          id: f.id,
          quality: f.quality ?? null,
          fileType: f.file_type ?? '',
          width: f.width ?? 0,
          height: f.height ?? 0,
          fps: f.fps ?? null,
          link: f.link,
        })),
      })),
    };
  }

  /** Portrait videos of 3–60 s for the query, each with the file that suits a 1080×1920 render. */
  async portraitCandidates(
    guard: Pick<UrlGuard, 'request'>,
    query: string,
    options: { perQuery: number; signal?: AbortSignal },
  ): Promise<StockVideoCandidate[]> {
    // Ask for a few more than needed: some results are too short, too long or lack a portrait file.
    const page = await this.searchVideos(guard, {
      query,
      orientation: 'portrait',
      perPage: Math.min(PEXELS_MAX_PER_PAGE, options.perQuery * 3),
      signal: options.signal,
    });
    const candidates: StockVideoCandidate[] = [];
    for (const video of page.videos) {
      if (video.durationSec < 3 || video.durationSec > 60) continue;
      const file = choosePortraitFile(video.files);
      if (!file) continue;
      candidates.push({
        externalId: String(video.id),
        title: titleFromPexelsUrl(video.pageUrl, video.id),
        pageUrl: video.pageUrl,
        durationSec: video.durationSec,
        width: file.width,
        height: file.height,
        downloadUrl: file.link,
        attribution: `Video by ${video.author.name} on Pexels (${video.pageUrl})`,
      });
      if (candidates.length >= options.perQuery) break;
    }
    return candidates;
  }
}

/** The provider to hand to StockLibrary when PEXELS_API_KEY is configured. */
export function createPexelsClient(settings: { apiKey: string; baseUrl?: string }): PexelsClient {
  return new PexelsClient(settings);
}
