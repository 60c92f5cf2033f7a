import { TextDecoder } from '@exodus/bytes/encoding.js';
import type { CheerioAPI } from 'cheerio';
import * as csstree from 'css-tree';
import { charsetParam, mimeEssence } from './content-type.ts';
import type { CrawlContext } from './crawl-context.ts';
import { skip } from './crawl-context.ts';
import { MAX_STYLESHEETS, STYLESHEET_MAX_BYTES } from './crawl-limits.ts';
import { fetchDocument, FetchFailure } from './fetch-document.ts';
import type { RobotsBook } from './robots.ts';
import type { CrawledStylesheet } from './site-crawl.ts';
import { documentBase } from './page-discovery.ts';
import { fetchableUrl } from './site-scope.ts';

/** Stylesheets a page links (<link rel="stylesheet">), resolved against the page's <base href>. */
export function stylesheetLinks($: CheerioAPI, pageUrl: URL): URL[] {
  const base = documentBase($, pageUrl);
  const urls: URL[] = [];
  $('link[href]').each((_, el) => {
    const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('stylesheet')) return;
    try {
      const url = new URL(($(el).attr('href') ?? '').trim(), base);
      url.hash = '';
      urls.push(url);
    } catch {
      // An unparsable href links nothing.
    }
  });
  return urls;
}

/**
 * Fetches the site's own stylesheets: those the crawled pages link, then the ones they @import, up to
 * MAX_STYLESHEETS, each through the guard and robots.txt. Off-site sheets (font services, CDNs) are reported,
 * not fetched: the page's <link> to them already says what they are.
 */
export async function collectStylesheets(
  ctx: CrawlContext,
  robots: RobotsBook,
  linked: URL[],
): Promise<CrawledStylesheet[]> {
  const seen = new Set<string>();
  const collected: CrawledStylesheet[] = [];
  let round = linked;
  while (round.length > 0) {
    const wanted: URL[] = [];
    for (const candidate of round) {
      const url = admit(ctx, candidate, seen);
      if (!url) continue;
      if (collected.length + wanted.length >= MAX_STYLESHEETS) {
        skip(ctx, {
          url: url.href,
          reason: 'page_limit',
          detail: `more than ${MAX_STYLESHEETS} stylesheets`,
        });
        continue;
      }
      wanted.push(url);
    }
    const fetched = await Promise.all(wanted.map((url) => fetchStylesheet(ctx, robots, url)));
    const imports: URL[] = [];
    for (const sheet of fetched) {
      if (!sheet) continue;
      collected.push(sheet);
      imports.push(...importedUrls(sheet));
    }
    round = imports;
  }
  return collected;
}

function admit(ctx: CrawlContext, candidate: URL, seen: Set<string>): URL | null {
  if (seen.has(candidate.href)) return null;
  seen.add(candidate.href);
  if (!ctx.scope.contains(candidate)) {
    skip(ctx, { url: candidate.href, reason: 'off_domain', detail: 'stylesheet on another site' });
    return null;
  }
  const url = fetchableUrl(candidate, ctx.guard);
  if (url instanceof Error) {
    skip(ctx, { url: candidate.href, reason: 'url_refused', detail: url.message });
    return null;
  }
  return url;
}

async function fetchStylesheet(
  ctx: CrawlContext,
  robots: RobotsBook,
  url: URL,
): Promise<CrawledStylesheet | null> {
  try {
    const refusal = await robots.check(url);
    if (refusal) throw refusal;
    const doc = await ctx.limit(() =>
      fetchDocument(ctx, url, { maxBytes: STYLESHEET_MAX_BYTES, accept: 'text/css,*/*;q=0.1' }),
    );
    if (!ctx.scope.contains(doc.url)) {
      throw new FetchFailure('off_domain', `redirected to another site (${doc.url.host})`);
    }
    if (doc.status < 200 || doc.status > 299)
      throw new FetchFailure('http_error', `answered HTTP ${doc.status}`);
    const essence = mimeEssence(doc.contentType);
    if (essence !== null && essence !== 'text/css') {
      throw new FetchFailure('unreadable', `served as ${essence}, not text/css`);
    }
    return { url: doc.url.href, css: decodeCss(doc.body, doc.contentType) };
  } catch (err) {
    if (!(err instanceof FetchFailure)) throw err;
    skip(ctx, { url: url.href, reason: err.reason, detail: `stylesheet ${err.message}` });
    return null;
  }
}

/** CSS Syntax §3.2: the Content-Type charset, else an @charset rule at the very start, else UTF-8. */
function decodeCss(body: Buffer, contentType: string | null): string {
  const labels: string[] = [];
  const declared = charsetParam(contentType);
  if (declared) labels.push(declared);
  const head = body.subarray(0, 1024).toString('latin1');
  if (head.startsWith('@charset "')) labels.push(head.slice(10, head.indexOf('";')));
  for (const label of labels) {
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // Unknown label: try the next source.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}

/** Targets of the sheet's @import rules, resolved against the sheet's URL. */
function importedUrls(sheet: CrawledStylesheet): URL[] {
  const ast = csstree.parse(sheet.css, {
    parseRulePrelude: false,
    parseValue: false,
    parseCustomProperty: false,
  });
  const urls: URL[] = [];
  if (ast.type !== 'StyleSheet') return urls;
  ast.children.forEach((node) => {
    if (node.type !== 'Atrule' || node.name.toLowerCase() !== 'import') return;
    if (node.prelude?.type !== 'AtrulePrelude') return;
    const target = node.prelude.children.first;
    const href = target?.type === 'Url' || target?.type === 'String' ? target.value : null;
    if (href === null) return;
    try {
      urls.push(new URL(href, sheet.url));
    } catch {
      // An unparsable @import imports nothing.
    }
  });
  return urls;
}
