// Reddit through its OAuth API with app credentials (REDDIT_CLIENT_ID / REDDIT_CLIENT_SECRET; its anonymous
// JSON is throttled and unreliable). Application-only OAuth: POST {token base}/api/v1/access_token with
// HTTP Basic client_id:client_secret and grant_type=client_credentials gives a bearer token, kept until a
// minute before it expires (and renewed once if Reddit refuses it early). Posts come from
// GET {api base}/r/{subreddit}/hot: r/popular (with Reddit's `g` country filter where it has one) for a
// query without a category, a subreddit per category otherwise. Reddit asks for a descriptive User-Agent.
import { z } from 'zod';
import type { GuardedResponse } from '../../platform/net/url-guard.ts';
import { linkDomain } from './link-domain.ts';
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

export const REDDIT_TOKEN_BASE_URL = 'https://www.reddit.com';
export const REDDIT_API_BASE_URL = 'https://oauth.reddit.com';
export const REDDIT_LISTING_LIMIT = 50;
/** Renew this long before the token's stated expiry, so no request carries a token about to lapse. */
const TOKEN_MARGIN_MS = 60_000;

/** Countries r/popular can be filtered to (Reddit's `g` parameter); other geos read the global list. */
export const REDDIT_GEO_FILTERS: ReadonlySet<string> = new Set([
  'US', 'AR', 'AU', 'BG', 'CA', 'CL', 'CO', 'HR', 'CZ', 'FI', 'FR', 'DE', 'GR', 'HU', 'IS', 'IN', 'IE', 'IT',
  'JP', 'MY', 'MX', 'NZ', 'PH', 'PL', 'PT', 'PR', 'RO', 'RS', 'SG', 'ES', 'SE', 'TW', 'TH', 'TR', 'GB',
]); // prettier-ignore

export const REDDIT_CATEGORY_SUBREDDITS: Record<TrendCategory, string> = {
  tech: 'technology',
  business: 'business',
  entertainment: 'entertainment',
  sports: 'sports',
  health: 'health',
  politics: 'politics',
  science: 'science',
};

/** Where posts that link nowhere else live: self posts, Reddit-hosted images and videos. */
const REDDIT_HOSTS = new Set(['reddit.com', 'old.reddit.com', 'i.redd.it', 'v.redd.it', 'redd.it']);

const tokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
});

const tokenAnswerSchema = z.union([tokenSchema, z.object({ error: z.union([z.string(), z.number()]) })]);

const listingSchema = z.object({
  data: z.object({
    children: z.array(
      z.object({
        kind: z.string(),
        data: z.object({
          title: z.string(),
          permalink: z.string(),
          url: z.string().optional(),
          domain: z.string().optional(),
          score: z.number(),
          num_comments: z.number(),
          created_utc: z.number(),
          is_self: z.boolean().optional(),
          over_18: z.boolean().optional(),
          stickied: z.boolean().optional(),
          promoted: z.boolean().nullable().optional(),
        }),
      }),
    ),
  }),
});
type Post = z.infer<typeof listingSchema>['data']['children'][number]['data'];

export interface RedditCredentials {
  clientId: string;
  clientSecret: string;
}

export interface RedditOptions {
  /** Replaces both www.reddit.com (token) and oauth.reddit.com (listings). */
  baseUrl?: string;
  timeoutMs?: number;
  clock?: () => Date;
}

interface Token {
  value: string;
  renewAt: number;
}

function postItem(post: Post, rank: number, query: SourceQuery, geoFiltered: boolean): SourceItem {
  const item: SourceItem = {
    source: 'reddit',
    kind: 'social',
    title: post.title.trim(),
    url: `https://www.reddit.com${post.permalink}`,
    domain: 'reddit.com',
    links: [],
    rank,
    engagement: { points: post.score, comments: post.num_comments },
    publishedAt: new Date(post.created_utc * 1000).toISOString(),
  };
  const linked = post.url && !post.is_self ? linkDomain(post.url) : undefined;
  if (post.url && linked && !REDDIT_HOSTS.has(linked))
    item.links.push({ title: item.title, url: post.url, domain: linked });
  if (geoFiltered) item.geo = query.geo;
  if (query.category) item.category = query.category;
  return item;
}

export class RedditSource implements TrendSource {
  readonly name = 'reddit' as const;
  private readonly tokenBase: string;
  private readonly apiBase: string;
  private readonly clock: () => Date;
  private token: Token | null = null;
  private pendingToken: Promise<Token> | null = null;

  constructor(
    private readonly guard: SourceGuard,
    private readonly credentials: RedditCredentials,
    private readonly options: RedditOptions = {},
  ) {
    this.tokenBase = trimBase(options.baseUrl ?? REDDIT_TOKEN_BASE_URL);
    this.apiBase = trimBase(options.baseUrl ?? REDDIT_API_BASE_URL);
    this.clock = options.clock ?? (() => new Date());
  }

  covers(): boolean {
    return true;
  }

  async fetch(query: SourceQuery, signal: AbortSignal): Promise<SourceItem[]> {
    const subreddit = query.category ? REDDIT_CATEGORY_SUBREDDITS[query.category] : 'popular';
    const geoFiltered = subreddit === 'popular' && REDDIT_GEO_FILTERS.has(query.geo);
    const params = new URLSearchParams({ limit: String(REDDIT_LISTING_LIMIT), raw_json: '1' });
    if (geoFiltered) params.set('g', query.geo);
    const url = `${this.apiBase}/r/${subreddit}/hot?${params.toString()}`;
    let response = await this.listing(url, await this.bearer(signal), signal);
    if (response.status === 401) {
      // Revoked or expired early: one fresh token, then give up.
      this.token = null;
      response = await this.listing(url, await this.bearer(signal), signal);
    }
    if (response.status === 401 || response.status === 403) {
      throw new SourceError(this.name, 'unauthorized', `Reddit refused the token (HTTP ${response.status})`);
    }
    if (!isOk(response)) throw statusError(this.name, response);
    const listing = parseJsonBody(this.name, response, listingSchema);
    const items: SourceItem[] = [];
    for (const child of listing.data.children) {
      const post = child.data;
      // Pinned announcements, adult posts and ads are not what the country is talking about.
      if (child.kind !== 't3' || post.stickied || post.over_18 || post.promoted) continue;
      items.push(postItem(post, items.length + 1, query, geoFiltered));
    }
    return items;
  }

  private listing(url: string, token: string, signal: AbortSignal): Promise<GuardedResponse> {
    return sourceRequest(this.guard, this.name, url, {
      signal,
      timeoutMs: this.options.timeoutMs,
      headers: { authorization: `bearer ${token}`, accept: 'application/json' },
    });
  }

  /** A valid token, asking Reddit for one only when none is held (concurrent callers share the request). */
  private async bearer(signal: AbortSignal): Promise<string> {
    if (this.token && this.clock().getTime() < this.token.renewAt) return this.token.value;
    this.pendingToken ??= this.requestToken(signal).finally(() => {
      this.pendingToken = null;
    });
    this.token = await this.pendingToken;
    return this.token.value;
  }

  private async requestToken(signal: AbortSignal): Promise<Token> {
    const basic = Buffer.from(`${this.credentials.clientId}:${this.credentials.clientSecret}`).toString(
      'base64',
    );
    const response = await sourceRequest(this.guard, this.name, `${this.tokenBase}/api/v1/access_token`, {
      signal,
      timeoutMs: this.options.timeoutMs,
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (response.status === 401 || response.status === 403) {
      throw new SourceError(
        this.name,
        'unauthorized',
        `Reddit refused the app credentials (HTTP ${response.status}); check REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET`,
      );
    }
    if (!isOk(response)) throw statusError(this.name, response);
    const token = parseJsonBody(this.name, response, tokenAnswerSchema);
    // A refused grant can come back as 200 with an error field ({"error": "unsupported_grant_type"}).
    if ('error' in token) {
      throw new SourceError(this.name, 'unauthorized', `Reddit refused the token request (${token.error})`);
    }
    return {
      value: token.access_token,
      renewAt: this.clock().getTime() + token.expires_in * 1000 - TOKEN_MARGIN_MS,
    };
  }
}
