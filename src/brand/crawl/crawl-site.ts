import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { skip, type CrawlContext } from './crawl-context.ts';
import { CrawlError } from './crawl-error.ts';
import { CONCURRENCY, CRAWL_TIMEOUT_MS, MAX_ATTEMPTS_PER_PAGE, MAX_PAGES } from './crawl-limits.ts';
import { FetchFailure } from './fetch-document.ts';
import { fetchPage, type FetchedPage } from './fetch-page.ts';
import { createLimiter } from './limiter.ts';
import {
  blogPostLinks,
  COMMON_PATHS,
  homePostLinks,
  pageLinks,
  rankRoleLinks,
  type PageLink,
  type SearchedRole,
} from './page-discovery.ts';
import { RobotsBook } from './robots.ts';
import type { CrawledPage, PageRole, SiteCrawl } from './site-crawl.ts';
import { fetchableUrl, normalizeSiteUrl, SiteScope } from './site-scope.ts';
import { collectStylesheets, stylesheetLinks } from './stylesheets.ts';

export interface CrawlOptions {
  /** Every request and every redirect hop goes through it. */
  guard: UrlGuard;
  /** Cancels the crawl: requests in flight are aborted and crawlSite throws CrawlError('aborted'). */
  signal?: AbortSignal;
  /** Bound on the whole crawl (default CRAWL_TIMEOUT_MS, 40 s); pages not fetched by then are reported. */
  timeoutMs?: number;
  /** Pages kept, home included (default and most MAX_PAGES, 6). */
  maxPages?: number;
}

/** The pages after the home page, in the order the page budget is spent on them. */
const PAGE_PLAN: Array<Exclude<PageRole, 'home'>> = ['about', 'pricing', 'customers', 'blog', 'blog_post'];
const ROLE_ORDER: PageRole[] = ['home', ...PAGE_PLAN];

interface KeptPage {
  role: PageRole;
  page: FetchedPage;
}

/**
 * Crawls a brand's website: the home page, then its about, pricing and customers pages, its blog index and
 * one blog post, found from the home page's links and, failing those, common paths. Stays on the home
 * page's registrable domain, honours robots.txt for the crawler's user agent, sends every request and
 * redirect hop through the URL guard, caps each page's size and checks it is HTML, and bounds the whole
 * crawl in time. Everything not fetched or dropped is listed in `skipped` with its reason.
 * Throws CrawlError when the home page cannot be used, or when `options.signal` cancels the crawl.
 */
export async function crawlSite(url: string, options: CrawlOptions): Promise<SiteCrawl> {
  const startedAt = new Date();
  const started = performance.now();
  if (options.signal?.aborted) throw cancelled();
  const requested = normalizeSiteUrl(url, options.guard);
  const timeoutMs = options.timeoutMs ?? CRAWL_TIMEOUT_MS;
  const maxPages = Math.max(1, Math.min(options.maxPages ?? MAX_PAGES, MAX_PAGES));

  const crawl = new AbortController();
  const timer = setTimeout(() => crawl.abort(new Error('crawl deadline')), timeoutMs);
  const onCancel = (): void => crawl.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const ctx: CrawlContext = {
    guard: options.guard,
    scope: SiteScope.of(requested),
    signal: crawl.signal,
    deadline: Date.now() + timeoutMs,
    skipped: [],
    limit: createLimiter(CONCURRENCY),
  };
  try {
    const robots = new RobotsBook(ctx);
    const home = await fetchHome(ctx, robots, requested, options.signal, timeoutMs);
    const kept: KeptPage[] = [{ role: 'home', page: home }];
    await crawlLinkedPages(ctx, robots, home, maxPages, kept, requested);
    if (options.signal?.aborted) throw cancelled();
    kept.sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
    const stylesheets = await collectStylesheets(
      ctx,
      robots,
      kept.flatMap(({ page }) => stylesheetLinks(page.$, page.url)),
    );
    if (options.signal?.aborted) throw cancelled();
    return {
      requestedUrl: requested.href,
      homeUrl: home.url.href,
      domain: ctx.scope.domain,
      pages: kept.map(({ role, page }) => toCrawledPage(role, page)),
      stylesheets,
      skipped: ctx.skipped,
      robotsTxt: await robots.found(home.url.origin),
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}

async function fetchHome(
  ctx: CrawlContext,
  robots: RobotsBook,
  url: URL,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<FetchedPage> {
  try {
    const refusal = await robots.check(url);
    if (refusal) throw refusal;
    const page = await ctx.limit(() => fetchPage(ctx, url));
    const afterRedirect = page.url.href === url.href ? null : await robots.check(page.url);
    if (afterRedirect) throw afterRedirect;
    return page;
  } catch (err) {
    if (!(err instanceof FetchFailure)) throw err;
    if (callerSignal?.aborted) throw cancelled();
    if (err.reason === 'timeout') {
      const bound = ctx.signal.aborted ? `the crawl's ${timeoutMs} ms` : err.message;
      throw new CrawlError('timeout', `the home page of ${url.host} did not load in time (${bound})`, {
        cause: err,
      });
    }
    // page_limit and duplicate never come from fetching one page.
    const reason = err.reason === 'page_limit' || err.reason === 'duplicate' ? 'unreadable' : err.reason;
    throw new CrawlError(reason, `the home page of ${url.host} could not be used: ${err.message}`, {
      cause: err,
    });
  }
}

/** Finds and fetches the pages of PAGE_PLAN that fit in the page budget; failures go to ctx.skipped. */
async function crawlLinkedPages(
  ctx: CrawlContext,
  robots: RobotsBook,
  home: FetchedPage,
  maxPages: number,
  kept: KeptPage[],
  requested: URL,
): Promise<void> {
  const links = pageLinks(home.$, home.url);
  const claimed = new Set<string>([home.url.href, requested.href]);
  const planned = PAGE_PLAN.slice(0, maxPages - 1);
  for (const role of PAGE_PLAN.slice(maxPages - 1)) {
    const best = role === 'blog_post' ? undefined : rankRoleLinks(links, role)[0];
    skip(ctx, {
      url:
        best?.url.href ??
        new URL(COMMON_PATHS[role === 'blog_post' ? 'blog' : role][0] as string, home.url).href,
      reason: 'page_limit',
      detail: `${role} page not fetched: at most ${maxPages} pages`,
    });
  }
  for (const role of ['about', 'pricing', 'customers', 'blog'] as const) {
    for (const link of rankRoleLinks(links, role)) {
      if (!ctx.scope.contains(link.url)) {
        skip(ctx, { url: link.url.href, reason: 'off_domain', detail: `${role} link to another site` });
      }
    }
  }

  const finder = new PageFinder(ctx, robots, claimed, kept);
  const searched = planned.filter((role): role is SearchedRole => role !== 'blog_post');
  const found = new Map<SearchedRole, Promise<FetchedPage | null>>(
    searched.map((role) => [role, finder.find(role, candidatesFor(role, links, home.url))]),
  );
  const blogPost = planned.includes('blog_post')
    ? (async () => {
        const blog = await found.get('blog');
        const posts = blog ? blogPostLinks(blog.$, blog.url, ctx.scope) : homePostLinks(links, ctx.scope);
        return finder.find('blog_post', posts);
      })()
    : null;
  await Promise.all([...found.values(), blogPost]);
}

/** Linked pages naming the role, best first, then the common paths not already among them. */
function candidatesFor(role: SearchedRole, links: PageLink[], home: URL): URL[] {
  const linked = rankRoleLinks(links, role).map((link) => link.url);
  return [...linked, ...COMMON_PATHS[role].map((path) => new URL(path, home))];
}

/** Tries a role's candidates in order until one is a usable page, within MAX_ATTEMPTS_PER_PAGE requests. */
class PageFinder {
  constructor(
    private readonly ctx: CrawlContext,
    private readonly robots: RobotsBook,
    /** Final and requested URLs already taken (or being fetched) by some role. */
    private readonly claimed: Set<string>,
    private readonly kept: KeptPage[],
  ) {}

  async find(role: PageRole, candidates: URL[]): Promise<FetchedPage | null> {
    const { ctx } = this;
    let attempts = 0;
    for (const candidate of candidates) {
      if (attempts >= MAX_ATTEMPTS_PER_PAGE || ctx.signal.aborted) break;
      if (!ctx.scope.contains(candidate)) continue;
      const url = fetchableUrl(candidate, ctx.guard);
      if (url instanceof Error) {
        skip(ctx, { url: candidate.href, reason: 'url_refused', detail: `${role}: ${url.message}` });
        continue;
      }
      if (this.claimed.has(url.href)) continue;
      this.claimed.add(url.href);
      try {
        const refusal = await this.robots.check(url);
        if (refusal) throw refusal;
        attempts++;
        const page = await ctx.limit(() => fetchPage(ctx, url));
        if (page.url.href !== url.href) {
          const afterRedirect = await this.robots.check(page.url);
          if (afterRedirect) throw afterRedirect;
          if (this.claimed.has(page.url.href)) {
            throw new FetchFailure('duplicate', `redirected to ${page.url.pathname}, a page already crawled`);
          }
          this.claimed.add(page.url.href);
        }
        this.kept.push({ role, page });
        return page;
      } catch (err) {
        if (!(err instanceof FetchFailure)) throw err;
        skip(ctx, { url: url.href, reason: err.reason, detail: `${role}: ${err.message}` });
      }
    }
    return null;
  }
}

function toCrawledPage(role: PageRole, page: FetchedPage): CrawledPage {
  return {
    role,
    url: page.url.href,
    status: page.status,
    contentType: page.contentType,
    charset: page.charset,
    html: page.html,
    bytes: page.bytes,
  };
}

function cancelled(): CrawlError {
  return new CrawlError('aborted', 'the crawl was cancelled');
}
