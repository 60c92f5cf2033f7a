import { join } from 'node:path';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import type { MusicBedFile } from '../../media/library/stock-library.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { extractArticle, PageTooComplexError, type ExtractedArticle } from './html-extract.ts';
import { collapseWhitespace } from './html-text.ts';

// Everything /videos/news fetches, always through the URL guard with size and time limits: the source page
// (turned into article text) and the caller's background music (checked with ffprobe to be audio).

const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 20_000;
const MUSIC_MAX_BYTES = 50 * 1024 * 1024;
const MUSIC_TIMEOUT_MS = 60_000;

function fetchFailure(field: string, message: string): JobFailure {
  return new JobFailure({
    code: 'INPUT_FETCH_FAILED',
    category: 'input',
    message: `${field}: ${message}`,
    retryable: false,
  });
}

/** The character set a page declares (header first, then <meta>); UTF-8 when it declares none. */
export function declaredCharset(contentType: string | undefined, head: string): string {
  const fromHeader = /charset\s*=\s*["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  return (fromHeader ?? fromMeta ?? 'utf-8').toLowerCase();
}

export function decodePage(body: Buffer, contentType: string | undefined): string {
  const charset = declaredCharset(contentType, body.subarray(0, 4096).toString('latin1'));
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Plain-text pages: paragraphs are separated by blank lines. */
function plainTextArticle(text: string): ExtractedArticle {
  return {
    paragraphs: text
      .split(/\n\s*\n/)
      .map(collapseWhitespace)
      .filter((p) => p.split(' ').length >= 4),
  };
}

/** The article of an HTML page; a page too complex to read fails the job as the caller's input, never as a crash. */
export function readPage(html: string, field = 'sourceUrl'): ExtractedArticle {
  try {
    return extractArticle(html);
  } catch (error) {
    if (!(error instanceof PageTooComplexError)) throw error;
    throw new JobFailure({
      code: 'SOURCE_HAS_NO_TEXT',
      category: 'input',
      message: `${field}: ${error.message}, too complex to read as an article.`,
      retryable: false,
    });
  }
}

export interface FetchArticleOptions {
  /** Names the page in failures: the request field (sourceUrl), or a story source's own URL. */
  field?: string;
  timeoutMs?: number;
}

export async function fetchArticle(
  ctx: JobContext<unknown>,
  url: string,
  options: FetchArticleOptions = {},
): Promise<ExtractedArticle & { finalUrl: string }> {
  const field = options.field ?? 'sourceUrl';
  let response;
  try {
    response = await ctx.services.urlGuard.request(url, {
      maxBytes: PAGE_MAX_BYTES,
      timeoutMs: options.timeoutMs ?? PAGE_TIMEOUT_MS,
      signal: ctx.signal,
      headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' },
    });
  } catch (error) {
    if (error instanceof UrlRejectedError) throw fetchFailure(field, error.message);
    throw error;
  }
  if (response.status < 200 || response.status > 299)
    throw fetchFailure(field, `the page answered HTTP ${response.status}`);
  const contentType = response.headers['content-type'];
  const html = !contentType || /html|xml/i.test(contentType);
  if (!html && !/^text\//i.test(contentType)) {
    throw new JobFailure({
      code: 'INPUT_INVALID_MEDIA',
      category: 'input',
      message: `${field} is not a web page (${contentType}).`,
      retryable: false,
    });
  }
  const text = decodePage(response.body, contentType);
  const article = html ? readPage(text, field) : plainTextArticle(text);
  if (article.paragraphs.length === 0) {
    throw new JobFailure({
      code: 'SOURCE_HAS_NO_TEXT',
      category: 'input',
      message: `${field}: no article text was found on the page.`,
      retryable: false,
    });
  }
  return { ...article, finalUrl: response.url };
}

/** Downloads the caller's music bed and makes sure it is audio ffmpeg can play. */
export async function downloadMusicBed(ctx: JobContext<unknown>, url: string): Promise<MusicBedFile> {
  const path = join(ctx.workDir, 'background-music');
  try {
    await ctx.services.urlGuard.download(url, path, {
      maxBytes: MUSIC_MAX_BYTES,
      timeoutMs: MUSIC_TIMEOUT_MS,
      signal: ctx.signal,
    });
  } catch (error) {
    if (error instanceof UrlRejectedError) throw fetchFailure('backgroundMusicUrl', error.message);
    throw error;
  }
  const info = await probeMedia(path).catch(() => undefined);
  if (!info?.audio || !(info.durationSec > 0)) {
    throw new JobFailure({
      code: 'INPUT_INVALID_MEDIA',
      category: 'input',
      message: 'backgroundMusicUrl is not a playable audio file.',
      retryable: false,
    });
  }
  return { id: 'backgroundMusicUrl', title: 'Your background music', path, sourceUrl: url };
}
