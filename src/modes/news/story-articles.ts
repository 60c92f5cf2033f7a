import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import type { ChosenStory } from '../../signals/stories/story-finder.ts';
import { publisherOf } from '../../signals/trends/publishers.ts';
import { fetchArticle } from './news-source.ts';

// The articles of the chosen stories, fetched when the job runs, through the URL guard like any sourceUrl
// (news-source.ts). A story keeps the first few of its sources that can be read; a source that cannot (gone,
// blocked, not an article, too slow) is skipped and recorded. Only when no story has a readable article does
// the job fail, and then it is refunded.

/** Articles narrated per story: enough for the facts to be confirmed, few enough to stay one story. */
export const ARTICLES_PER_STORY = 3;
/** Each source page gets this long; a story's sources are fetched at once, so a story takes at most this. */
const ARTICLE_TIMEOUT_MS = 15_000;

export interface StoryArticle {
  url: string;
  finalUrl: string;
  /** Who published it, as the page names itself (og:site_name), else the publisher list's name, else the domain. */
  publisher: string;
  title?: string;
  paragraphs: string[];
  language?: string;
}

export interface ReadStory {
  story: ChosenStory;
  articles: StoryArticle[];
  skipped: { url: string; reason: string }[];
}

function publisherName(siteName: string | undefined, domain: string, url: string): string {
  if (siteName) return siteName;
  return publisherOf(domain || new URL(url).hostname).name;
}

async function readStory(ctx: JobContext<unknown>, story: ChosenStory): Promise<ReadStory> {
  const results = await Promise.allSettled(
    story.sources.map((source) =>
      fetchArticle(ctx, source.url, { field: source.url, timeoutMs: ARTICLE_TIMEOUT_MS }),
    ),
  );
  ctx.signal.throwIfAborted();
  const articles: StoryArticle[] = [];
  const skipped: ReadStory['skipped'] = [];
  for (const [i, result] of results.entries()) {
    const source = story.sources[i]!;
    if (result.status === 'rejected') {
      const reason: unknown = result.reason;
      skipped.push({ url: source.url, reason: reason instanceof Error ? reason.message : String(reason) });
      continue;
    }
    if (articles.length === ARTICLES_PER_STORY) continue;
    const page = result.value;
    articles.push({
      url: source.url,
      finalUrl: page.finalUrl,
      publisher: publisherName(page.siteName, source.domain, page.finalUrl),
      ...(page.title ? { title: page.title } : {}),
      paragraphs: page.paragraphs,
      ...(page.language ? { language: page.language } : {}),
    });
  }
  return { story, articles, skipped };
}

/**
 * The stories with their readable articles, kept in the work folder so a retried attempt reads the same pages
 * without fetching them again. Stories none of whose sources could be read are dropped.
 */
export async function readStories(
  ctx: JobContext<unknown>,
  stories: ChosenStory[],
): Promise<{ read: ReadStory[]; unreadable: ReadStory[] }> {
  const path = join(ctx.workDir, 'news-stories.json');
  let all: ReadStory[];
  if (existsSync(path)) {
    all = JSON.parse(await readFile(path, 'utf8')) as ReadStory[];
  } else {
    all = [];
    for (const [i, story] of stories.entries()) {
      await ctx.progress('source', 2 + i, `Reading the articles of "${story.topic}".`);
      all.push(await readStory(ctx, story));
    }
  }
  const read = all.filter((s) => s.articles.length > 0);
  if (read.length === 0) {
    const reasons = all.flatMap((s) => s.skipped.map((k) => k.reason));
    throw new JobFailure({
      code: 'STORY_SOURCES_UNREADABLE',
      category: 'provider',
      message: `None of the articles of ${stories.map((s) => `"${s.topic}"`).join(', ')} could be read, so there is nothing true to narrate: ${reasons.join('; ')}`,
      retryable: false,
    });
  }
  if (!existsSync(path)) await writeFile(path, JSON.stringify(all));
  return { read, unreadable: all.filter((s) => s.articles.length === 0) };
}
