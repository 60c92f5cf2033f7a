import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { mimeEssence } from './content-type.ts';
import type { CrawlContext } from './crawl-context.ts';
import { PAGE_MAX_BYTES } from './crawl-limits.ts';
import { decodeHtml } from './decode-html.ts';
import { fetchDocument, FetchFailure } from './fetch-document.ts';
import { markupProblem } from './markup-check.ts';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export interface FetchedPage {
  /** Final URL after redirects. */
  url: URL;
  status: number;
  contentType: string;
  charset: string;
  html: string;
  bytes: number;
  /** The parsed document, for finding links and stylesheets. */
  $: CheerioAPI;
}

/**
 * Fetches one HTML page of the site: through the guard (size-capped), still on the site after redirects,
 * a 2xx answer typed as HTML, decoded by its declared or sniffed charset, and markup the parser can read
 * in bounded time. Throws FetchFailure naming what was wrong.
 */
export async function fetchPage(ctx: CrawlContext, url: URL): Promise<FetchedPage> {
  const doc = await fetchDocument(ctx, url, {
    maxBytes: PAGE_MAX_BYTES,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  });
  if (!ctx.scope.contains(doc.url)) {
    throw new FetchFailure('off_domain', `redirected to another site (${doc.url.host})`);
  }
  if (doc.status < 200 || doc.status > 299)
    throw new FetchFailure('http_error', `answered HTTP ${doc.status}`);
  const essence = mimeEssence(doc.contentType);
  if (essence === null || !HTML_TYPES.has(essence)) {
    throw new FetchFailure('not_html', `served as ${essence ?? 'an unknown type'}, not HTML`);
  }
  const { html, charset } = decodeHtml(doc.body, doc.contentType);
  const problem = markupProblem(html);
  if (problem !== null) throw new FetchFailure('unreadable', problem);
  return {
    url: doc.url,
    status: doc.status,
    contentType: doc.contentType ?? essence,
    charset,
    html,
    bytes: doc.body.length,
    $: cheerio.load(html),
  };
}
