// The brand crawler against the Northwind Ledger fixture site over loopback (no database): what it
// fetches and refuses, what it reads, and how each hostile answer ends. Fixture: test/fixtures/brand-site.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { UrlGuard } from '../src/platform/net/url-guard.ts';
import { crawlSite, type CrawlOptions } from '../src/brand/crawl/crawl-site.ts';
import { CrawlError, type CrawlErrorReason } from '../src/brand/crawl/crawl-error.ts';
import { CRAWLER_USER_AGENT } from '../src/brand/crawl/crawler-agent.ts';
import { MAX_REDIRECTS } from '../src/brand/crawl/crawl-limits.ts';
import type { CrawlSkipReason, SiteCrawl } from '../src/brand/crawl/site-crawl.ts';
import { BrandSiteServer } from './support/brand-site-server.ts';

let site: BrandSiteServer;
const guard = new UrlGuard({ allowLoopback: true });

before(async () => {
  site = await BrandSiteServer.start();
});

afterEach(() => site.reset());

after(async () => {
  await guard.close();
  await site.close();
});

function crawl(options: Partial<CrawlOptions> = {}, url = site.origin): Promise<SiteCrawl> {
  return crawlSite(url, { guard, ...options });
}

/** Runs a crawl expected to fail; returns the error and how long it took. */
async function failure(run: Promise<unknown>): Promise<{ error: CrawlError; ms: number }> {
  const started = performance.now();
  try {
    await run;
  } catch (err) {
    assert.ok(err instanceof CrawlError, `expected CrawlError, got ${String(err)}`);
    return { error: err, ms: performance.now() - started };
  }
  assert.fail('expected the crawl to fail');
}

function skipOf(result: SiteCrawl, path: string, reason: CrawlSkipReason): void {
  const url = new URL(path, site.origin).href;
  assert.ok(
    result.skipped.some((s) => s.url === url && s.reason === reason),
    `expected ${path} skipped as ${reason}; skipped: ${JSON.stringify(result.skipped)}`,
  );
}

/** Paths of HTML pages the server was asked for (robots.txt and assets excluded). */
function pageRequests(paths = site.paths('127.0.0.1')): string[] {
  return paths.filter((path) => path !== '/robots.txt' && !path.startsWith('/assets/'));
}

void describe('crawling the fixture site', () => {
  let result: SiteCrawl;
  let onSite: string[];
  let offSite: string[];
  let agents: Array<string | null>;

  before(async () => {
    site.reset();
    result = await crawl();
    onSite = site.paths('127.0.0.1');
    offSite = site.paths('localhost');
    agents = site.requests.map((r) => r.userAgent);
  });

  void test('keeps home, about, pricing, customers, the blog index and its first post', () => {
    assert.deepEqual(
      result.pages.map((p) => [p.role, new URL(p.url).pathname]),
      [
        ['home', '/'],
        ['about', '/company/about'],
        ['pricing', '/pricing'],
        ['customers', '/customers'],
        ['blog', '/blog/'],
        ['blog_post', '/blog/closing-the-books-in-five-days'],
      ],
    );
    assert.equal(result.homeUrl, `${site.origin}/`);
    assert.equal(result.requestedUrl, `${site.origin}/`);
    assert.equal(result.domain, `127.0.0.1:${site.port}`);
    assert.equal(result.robotsTxt, true);
    const about = result.pages.find((p) => p.role === 'about');
    assert.match(about?.html ?? '', /Maya Okafor, a\s+certified public accountant/);
    const post = result.pages.find((p) => p.role === 'blog_post');
    assert.match(post?.html ?? '', /Day five: read the profit and loss/);
    for (const page of result.pages) {
      assert.equal(page.status, 200);
      assert.equal(page.charset, 'UTF-8');
      assert.equal(page.bytes, Buffer.byteLength(page.html));
    }
  });

  void test('requests at most 6 pages, never the disallowed, off-domain or other pages', () => {
    const requested = pageRequests(onSite);
    assert.ok(result.pages.length <= 6);
    // Every request, redirect hops and failed candidates included:
    assert.deepEqual([...requested].sort(), [
      '/',
      '/about-us',
      '/blog/',
      '/blog/closing-the-books-in-five-days',
      '/company/about',
      '/customers',
      '/go/customers',
      '/pricing',
    ]);
    assert.ok(!requested.includes('/our-story/'), 'robots.txt disallows /our-story/ for Reelsmith');
    assert.deepEqual(offSite, [], 'off-domain links are never followed');
    for (const other of ['/blog/cash-flow-forecasting-for-small-teams', '/blog/sales-tax-nexus-explained']) {
      assert.ok(!requested.includes(other));
    }
    assert.ok(agents.every((agent) => agent === CRAWLER_USER_AGENT));
    assert.ok(onSite.includes('/robots.txt') && onSite.includes('/assets/site.css'));
  });

  void test('reports what it skipped and why', () => {
    skipOf(result, '/our-story/', 'robots');
    assert.ok(
      result.skipped.some((s) => s.url === `${site.localhostOrigin}/blog/` && s.reason === 'off_domain'),
      'the off-site blog link is reported',
    );
    skipOf(result, '/go/customers', 'url_refused');
    const refused = result.skipped.find((s) => s.reason === 'url_refused');
    assert.match(refused?.detail ?? '', /169\.254\.169\.254/);
  });

  void test('collects the same-site stylesheet and reports the font service one', () => {
    assert.deepEqual(
      result.stylesheets.map((s) => s.url),
      [`${site.origin}/assets/site.css`],
    );
    assert.match(result.stylesheets[0]?.css ?? '', /--nw-primary:\s*#0b6e4f/);
    assert.match(result.stylesheets[0]?.css ?? '', /@font-face/);
    assert.ok(
      result.skipped.some(
        (s) => s.url.startsWith('https://fonts.googleapis.com/') && s.reason === 'off_domain',
      ),
    );
  });
});

void describe('page discovery and robots', () => {
  void test('without robots.txt the best about link is taken, so the robots rule above is what kept it out', async () => {
    site.route('/robots.txt', 'not_found');
    const result = await crawl();
    assert.equal(result.robotsTxt, false);
    assert.equal(new URL(result.pages.find((p) => p.role === 'about')?.url ?? '').pathname, '/our-story/');
  });

  void test('a start page robots.txt disallows is not fetched', async () => {
    const { error } = await failure(crawl({}, `${site.origin}/our-story/`));
    assert.equal(error.reason, 'robots');
    assert.match(error.message, /disallows this page for Reelsmith/);
    assert.deepEqual(site.paths(), ['/robots.txt']);
  });

  void test('robots.txt answering 5xx closes the site', async () => {
    site.route('/robots.txt', 'server_error');
    const { error } = await failure(crawl());
    assert.equal(error.reason, 'robots');
    assert.match(error.message, /HTTP 500/);
    assert.deepEqual(pageRequests(), []);
  });

  void test('maxPages spends the budget in order and reports the rest', async () => {
    const result = await crawl({ maxPages: 3 });
    assert.deepEqual(
      result.pages.map((p) => p.role),
      ['home', 'about', 'pricing'],
    );
    for (const role of ['customers', 'blog', 'blog_post']) {
      assert.ok(
        result.skipped.some((s) => s.reason === 'page_limit' && s.detail?.startsWith(`${role} page`)),
      );
    }
    const requested = pageRequests();
    assert.ok(!requested.includes('/customers') && !requested.includes('/blog/'));
  });

  void test('a role gets at most 3 requests: broken candidates are reported, the next tried', async () => {
    site.route('/customers', 'server_error');
    const result = await crawl();
    skipOf(result, '/go/customers', 'url_refused');
    skipOf(result, '/customers', 'http_error');
    skipOf(result, '/case-studies', 'http_error');
    assert.ok(!result.pages.some((p) => p.role === 'customers'));
    assert.ok(!pageRequests().includes('/clients'), 'the fourth candidate is never tried');
  });
});

void describe('charsets', () => {
  void test('windows-1252 declared only by <meta http-equiv> is decoded', async () => {
    site.route('/', 'windows_1252_meta');
    const home = (await crawl()).pages[0];
    assert.equal(home?.charset, 'windows-1252');
    assert.match(home?.html ?? '', /<h1>Über uns<\/h1>/);
    assert.match(home?.html ?? '', /19 € im Monat/);
    assert.match(home?.html ?? '', /Crème brûlée/);
  });

  void test('Shift_JIS declared only in the Content-Type header is decoded', async () => {
    site.route('/', 'shift_jis_header');
    const home = (await crawl()).pages[0];
    assert.equal(home?.charset, 'Shift_JIS');
    assert.match(home?.html ?? '', /<h1>中小企業のための会計ソフト<\/h1>/);
  });
});

void describe('hostile sites end in bounded time with a clear reason', () => {
  const TIMEOUT_MS = 3000;
  // Generous: the point is that the crawl's own bound holds, not how fast this machine is.
  const BOUND_MS = TIMEOUT_MS + 2000;

  const homeCases: Array<[string, Parameters<BrandSiteServer['route']>[1], CrawlErrorReason, RegExp]> = [
    ['a 20 MB page streamed without length', 'huge_page', 'too_large', /larger than/],
    ['a 20 MB page with its length declared', 'huge_page_declared', 'too_large', /larger than/],
    ['100,000 nested elements', 'deep_nesting', 'unreadable', /nests elements more than 512 deep/],
    ['a server that trickles', 'slow_trickle', 'timeout', /did not load in time/],
    ['a server that never answers', 'hang', 'timeout', /did not load in time/],
    ['a redirect loop', 'redirect_loop', 'redirect_loop', /redirect loop at /],
    ['a redirect to the metadata address', 'private_redirect', 'url_refused', /169\.254\.169\.254/],
    ['a redirect to another site', 'offsite_redirect', 'off_domain', /another site \(localhost/],
    ['a PDF', 'not_html', 'not_html', /application\/pdf/],
    ['a 404', 'not_found', 'http_error', /HTTP 404/],
  ];

  for (const [name, kind, reason, message] of homeCases) {
    void test(`home page: ${name} → ${reason}`, async () => {
      site.route('/', kind);
      const { error, ms } = await failure(crawl({ timeoutMs: TIMEOUT_MS }));
      assert.equal(error.reason, reason);
      assert.match(error.message, message);
      assert.ok(ms < BOUND_MS, `took ${Math.round(ms)} ms`);
    });
  }

  void test('a redirect loop is followed at most MAX_REDIRECTS hops', async () => {
    site.route('/', 'redirect_loop');
    await failure(crawl());
    assert.ok(pageRequests().length <= MAX_REDIRECTS + 1);
  });

  const pageCases: Array<[Parameters<BrandSiteServer['route']>[1], CrawlSkipReason]> = [
    ['huge_page', 'too_large'],
    ['deep_nesting', 'unreadable'],
    ['slow_trickle', 'timeout'],
    ['redirect_loop', 'redirect_loop'],
  ];

  for (const [kind, reason] of pageCases) {
    void test(`pricing page: ${kind} is skipped as ${reason}, the rest is kept`, async () => {
      site.route('/pricing', kind);
      const started = performance.now();
      const result = await crawl({ timeoutMs: TIMEOUT_MS });
      assert.ok(performance.now() - started < BOUND_MS);
      skipOf(result, '/pricing', reason);
      const roles = result.pages.map((p) => p.role);
      assert.ok(!roles.includes('pricing'));
      assert.ok(roles.includes('about') && roles.includes('blog_post'), roles.join());
    });
  }

  void test('cancelling stops the crawl promptly and aborts the request in flight', async () => {
    site.route('/', 'slow_trickle');
    const controller = new AbortController();
    const run = crawl({ signal: controller.signal });
    await delay(300);
    assert.equal(site.activeResponses, 1);
    const cancelledAt = performance.now();
    controller.abort();
    const { error } = await failure(run);
    assert.equal(error.reason, 'aborted');
    assert.ok(performance.now() - cancelledAt < 1000);
    for (let i = 0; i < 50 && site.activeResponses > 0; i++) await delay(20);
    assert.equal(site.activeResponses, 0, 'the slow response was closed by the client');
  });

  void test('an already-cancelled signal fetches nothing', async () => {
    const { error } = await failure(crawl({ signal: AbortSignal.abort() }));
    assert.equal(error.reason, 'aborted');
    assert.deepEqual(site.requests, []);
  });
});

void describe('website addresses', () => {
  void test('refuses what the guard refuses, before any request', async () => {
    for (const url of [
      'ftp://northwind.example/',
      'http://10.0.0.1/',
      'https://intranet/',
      'not a url at all',
    ]) {
      const { error } = await failure(crawl({}, url));
      assert.equal(error.reason, 'url_refused', url);
    }
    assert.deepEqual(site.requests, []);
  });

  void test('a URL with a path and fragment starts there, without the fragment', async () => {
    const result = await crawl({ maxPages: 1 }, `${site.origin}/pricing#plans`);
    assert.equal(result.requestedUrl, `${site.origin}/pricing`);
    assert.equal(result.pages[0]?.role, 'home');
    assert.match(result.pages[0]?.html ?? '', /Simple pricing that grows/);
  });
});
