import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FieldIssue } from '../../platform/errors.ts';
import type { JobContext, ModeDefinition, Price } from '../../platform/modes/mode.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { isNiche, type Niche } from '../../media/footage/niches.ts';
import type { StoryFinder } from '../../signals/stories/story-finder.ts';
import { scriptBudget } from '../../media/script/budget.ts';
import { scriptProvenance } from '../../media/script/writer.ts';
import type { Narrator } from '../../media/voice/narrator.ts';
import { resolveVoice, VoiceUnavailableError } from '../../media/voice/voice-catalogue.ts';
import { captionStyleSchema } from '../shared/field-schemas.ts';
import { runStockEngine, type StockEngineDeps, type StockEngineRequest } from '../shared/stock-engine.ts';
import { narrationLanguage } from '../motivational/motivational-request.ts';
import { nicheWarnings, stockRenderEstimate } from '../stock/stock-mode.ts';
import type { ExtractedArticle } from './html-extract.ts';
import {
  NEWS_ALIASES,
  NEWS_DURATIONS,
  NEWS_KEEP_FIELDS,
  newsRequestSchema,
  prepareNewsBody,
  type NewsRequest,
} from './news-request.ts';
import { downloadMusicBed, fetchArticle } from './news-source.ts';
import { withStories } from './news-stories.ts';
import { newsNarration } from './news-summary.ts';
import { readStories } from './story-articles.ts';
import { storyNarration } from './story-narration.ts';

/** A summary shorter than the duration makes a shorter video (never silence), but not under 15 s. */
const MIN_VIDEO_SEC = 15;

function newsPrice(): Price {
  return {
    usdCents: unitPrice('news'),
    breakdown: [{ item: 'news video', usd_cents: unitPrice('news'), quantity: 1, unit: 'job' }],
    tool: 'videos/news',
    model: 'news',
    tier: 'standard',
    engine: 'stock',
  };
}

/** The first requested niche that is a footage niche (spec 2.8); other niches only describe the topic. */
export function footageNiche(niches: string[]): Niche | undefined {
  return niches.find((n): n is Niche => isNiche(n));
}

function voiceIssue(
  narrator: Narrator,
  voiceId: string | undefined,
  language: string,
): FieldIssue | undefined {
  try {
    narrator.check({ voiceId, language });
    return undefined;
  } catch (error) {
    if (!(error instanceof VoiceUnavailableError)) throw error;
    return {
      field: 'voiceId',
      message: `is not available: ${error.message}`,
      valid_values: error.validVoiceIds,
    };
  }
}

function speaks(language: string): boolean {
  try {
    resolveVoice({ language });
    return true;
  } catch {
    return false;
  }
}

/** The fetched and extracted page, kept in the work folder so a retried attempt does not fetch it again. */
async function sourceArticle(
  ctx: JobContext<unknown>,
  url: string,
): Promise<ExtractedArticle & { finalUrl: string }> {
  const path = join(ctx.workDir, 'news-source.json');
  if (existsSync(path))
    return JSON.parse(await readFile(path, 'utf8')) as ExtractedArticle & { finalUrl: string };
  await ctx.progress('source', 3, 'Reading the source article.');
  const article = await fetchArticle(ctx, url);
  await writeFile(path, JSON.stringify(article));
  return article;
}

/** The language a narration is read in: the voice's, else the page's when a voice speaks it, else English. */
function readingLanguage(voiceId: string | undefined, pageLanguage: string | undefined): string {
  if (voiceId) return narrationLanguage(voiceId);
  return pageLanguage && speaks(pageLanguage) ? pageLanguage : 'en';
}

function storyWarnings(request: NewsRequest): string[] {
  const stories = request.stories ?? [];
  return [
    ...stories.map(
      (s) =>
        `Story "${s.topic}" (trend ${s.trendId}, virality ${s.viralityScore}): narrated from its publishers' articles (${s.sources.map((source) => source.domain || source.url).join(', ')}), fetched when the job runs; an article that cannot be read then is skipped.`,
    ),
    ...(request.storyWarnings ?? []),
  ];
}

export interface NewsModeDeps extends StockEngineDeps {
  /** Finds the trending stories a request without sourceUrl is made from; absent outside the API and workers. */
  stories: StoryFinder | undefined;
}

/** POST /videos/news (spec 1 §4.8): a news video summarized from a source page, or from trending stories' own articles. */
export function newsMode(deps: NewsModeDeps): ModeDefinition<NewsRequest> {
  return {
    name: 'news',
    endpoint: 'videos/news',
    title: 'News video',
    description:
      "A narrated news video: the sourceUrl page is fetched, its article text extracted and summarized to fit the duration in the chosen format; without a source, the top trending stories for the niches and keywords (or the trend trendId) are narrated from their publishers' own articles, naming them.",
    schema: newsRequestSchema,
    aliases: NEWS_ALIASES,
    keepFields: NEWS_KEEP_FIELDS,
    prepare: prepareNewsBody,
    receiptStatus: 202,
    idempotencyKey: 'recommended',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: false,
    async validate(request, services) {
      const issues: FieldIssue[] = [];
      for (const field of ['sourceUrl', 'backgroundMusicUrl'] as const) {
        const url = request[field];
        if (!url) continue;
        try {
          await services.urlGuard.assertAllowed(url, { timeoutMs: 5000 });
        } catch (error) {
          if (!(error instanceof UrlRejectedError)) throw error;
          issues.push({ field, message: error.message });
        }
      }
      const voice = voiceIssue(deps.narrator, request.voiceId, narrationLanguage(request.voiceId));
      if (voice) issues.push(voice);
      if (issues.length > 0) throw invalidInputError(issues);
      // The stories are found last: a request that would be refused anyway costs no trend read.
      return withStories(request, deps.stories);
    },
    price: newsPrice,
    estimate: (request) => {
      const seconds = NEWS_DURATIONS[request.duration];
      const niche = footageNiche(request.niches);
      return {
        renderSeconds: stockRenderEstimate(seconds),
        durationSec: seconds,
        script: scriptProvenance('material'),
        warnings: [
          ...(request.sourceUrl
            ? [
                `sourceUrl is fetched when the job runs and summarized to at most about ${seconds} s; a shorter article makes a shorter video (at least ${MIN_VIDEO_SEC} s).`,
              ]
            : storyWarnings(request)),
          ...(request.niches.length > 0 && !niche
            ? ['None of niches is a footage niche (clip_type values); footage is chosen from the narration.']
            : []),
          ...(niche ? nicheWarnings(niche) : []),
        ],
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const seconds = NEWS_DURATIONS[r.duration];
      const budgetWords = scriptBudget({ durationSec: seconds, voiceSpeed: 1 }).targetWords;
      const music = r.backgroundMusicUrl ? await downloadMusicBed(ctx, r.backgroundMusicUrl) : undefined;
      const common = {
        contentPurpose: 'news' as const,
        contentStyle: r.format === 'breaking' ? ('energetic' as const) : ('professional' as const),
        voiceSpeed: 1,
        voiceId: r.voiceId,
        clipType: footageNiche(r.niches),
        footageKeywords: r.keywords,
        excludeKeywords: [],
        assetUrls: [],
        captionStyle: captionStyleSchema.parse('highlight'),
        music: { enabled: true, volume: 0.35 },
        ...(music ? { musicBed: music } : {}),
        includeBranding: true,
        progressBar: { enabled: false, position: 'bottom' as const },
        platforms: [],
        aspectRatio: r.aspectRatio,
        // The narration's own length sets the video's: never silence after it.
        durationSec: MIN_VIDEO_SEC,
      };

      let request: StockEngineRequest;
      let news: Record<string, unknown>;
      if (r.sourceUrl) {
        const article = await sourceArticle(ctx, r.sourceUrl);
        const siteName = article.siteName ?? new URL(article.finalUrl).hostname.replace(/^www\./, '');
        const narration = newsNarration({
          title: article.title,
          siteName,
          paragraphs: article.paragraphs,
          format: r.format,
          budgetWords,
          keywords: r.keywords,
          // Sentences are split by the page's own language, whatever voice reads them.
          ...(article.language ? { language: article.language } : {}),
        });
        request = {
          ...common,
          brief: article.title ?? narration.sentences[0] ?? siteName,
          script: narration.script,
          scriptSource: 'material',
          language: readingLanguage(r.voiceId, article.language),
        };
        news = {
          sourceUrl: r.sourceUrl,
          title: article.title,
          siteName,
          format: r.format,
          duration: r.duration,
          sentencesUsed: narration.sentences.length,
          paragraphsFound: article.paragraphs.length,
        };
      } else {
        const { read, unreadable } = await readStories(ctx, r.stories ?? []);
        const narration = storyNarration({
          format: r.format,
          stories: read.map((s) => ({ topic: s.story.topic, articles: s.articles })),
          budgetWords,
          keywords: r.keywords,
        });
        request = {
          ...common,
          brief: narration.stories[0]!.headline,
          script: narration.script,
          scriptSource: 'material',
          language: readingLanguage(r.voiceId, read[0]!.articles[0]!.language),
        };
        news = {
          format: r.format,
          duration: r.duration,
          stories: read.map((s, i) => ({
            trendId: s.story.trendId,
            topic: s.story.topic,
            viralityScore: s.story.viralityScore,
            urgency: s.story.urgency,
            headline: narration.stories[i]!.headline,
            publishers: narration.stories[i]!.publishers,
            sentencesUsed: narration.stories[i]!.sentences.length,
            sources: s.articles.map((a) => ({
              url: a.url,
              publisher: a.publisher,
              ...(a.title ? { title: a.title } : {}),
            })),
            sourcesSkipped: s.skipped,
          })),
          ...(unreadable.length > 0
            ? {
                storiesSkipped: unreadable.map((s) => ({
                  trendId: s.story.trendId,
                  topic: s.story.topic,
                  sourcesSkipped: s.skipped,
                })),
              }
            : {}),
        };
      }
      const output = await runStockEngine(ctx, request, deps);
      return { ...output, artifacts: { ...output.artifacts, aspectRatio: r.aspectRatio, news } };
    },
  };
}
