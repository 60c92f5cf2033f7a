import type { ModeDefinition, Price } from '../../platform/modes/mode.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { runStockEngine, type StockEngineDeps } from '../shared/stock-engine.ts';
import { expectedScriptSource, scriptProvenance, type ScriptSource } from '../../media/script/writer.ts';
import { validateStockInput } from '../shared/stock-validation.ts';
import { accountBrand } from '../shared/account-brand.ts';
import { brandKitHeaders, brandKitWarnings } from '../shared/brand-kit-selection.ts';
import { resolveKitForBrief, videoBranding, videoLanguage } from '../shared/kit-branding.ts';
import { checkSavedLogo } from '../magic/magic-mode.ts';
import { nicheWarnings, stockRenderEstimate } from '../stock/stock-mode.ts';
import { footageMatchWarnings, withFootageMatchCheck } from '../shared/footage-match-warnings.ts';
import { articleNarration, type ArticleNarration } from './article-narration.ts';
import {
  ARTICLE_ALIASES,
  articleRequestSchema,
  prepareArticleBody,
  topicFromUrl,
  type ArticleRequest,
} from './article-request.ts';

// Where the narration of an article-to-video job comes from, in order: a sent `script` (word for word), the
// article text (markdown stripped, the opening sentences that fit the duration), the summary, and last the
// service's writer on the title or the URL's words when nothing else was sent.

type ArticleSource =
  | { kind: 'script'; script: string }
  | { kind: 'article'; narration: ArticleNarration }
  | { kind: 'written'; topic: string };

export function articleSource(r: ArticleRequest): ArticleSource | undefined {
  if (r.script) return { kind: 'script', script: r.script };
  const narration = articleNarration({
    title: r.article_title,
    text: r.article_text,
    summary: r.article_summary,
    cta: r.cta_text,
    durationSec: r.duration_sec,
    voiceSpeed: r.voice_speed,
    language: r.language,
  });
  if (narration) return { kind: 'article', narration };
  const topic = r.article_title ?? (r.article_url ? topicFromUrl(r.article_url) : undefined);
  return topic ? { kind: 'written', topic } : undefined;
}

/** The article's own sentences are material; a title or a URL's words alone are a topic the writer writes on. */
function articleScriptSource(source: ArticleSource | undefined, llmConfigured: boolean): ScriptSource {
  if (source?.kind === 'article') return 'material';
  if (source?.kind === 'script') return 'request';
  return expectedScriptSource(undefined, llmConfigured);
}

function articlePrice(): Price {
  return {
    usdCents: unitPrice('article'),
    breakdown: [
      {
        item: 'article-to-video (refunded on failure)',
        usd_cents: unitPrice('article'),
        quantity: 1,
        unit: 'job',
      },
    ],
    tool: 'blog-to-video',
    model: 'article',
    tier: 'standard',
    engine: 'stock',
  };
}

function sourceWarnings(r: ArticleRequest, source: ArticleSource | undefined): string[] {
  const warnings: string[] = [];
  if (r.article_url)
    warnings.push(
      `article_url is recorded with the video, not fetched.${source?.kind === 'written' ? ' Send article_text (or article_summary) to narrate the article itself.' : ''}`,
    );
  if (source?.kind === 'script') {
    warnings.push(
      'A sent script is narrated word for word instead of the article; cta_text and include_hook do not apply.',
    );
  } else if (source?.kind === 'article') {
    const n = source.narration;
    if (n.sentencesUsed < n.sentencesAvailable) {
      warnings.push(
        `The narration reads the first ${n.sentencesUsed} of ${n.sentencesAvailable} sentences of ${n.source} (${n.words} words; the budget of duration_sec ${r.duration_sec} at voice_speed ${r.voice_speed} is ${n.budgetWords}); send a longer duration_target_sec (up to 120) to read more.`,
      );
    }
    if (r.include_hook !== undefined)
      warnings.push(
        'include_hook applies only to scripts the service writes; the article is read as written.',
      );
  } else if (source?.kind === 'written') {
    warnings.push(`No article text was sent: the script is written about "${source.topic}".`);
  }
  return warnings;
}

/** Categories and tags describe the article, so they also steer the footage. */
function articleFootageKeywords(r: ArticleRequest): string[] {
  return [...r.footage_keywords, ...r.categories, ...r.tags].slice(0, 32);
}

/** POST /blog-to-video (spec 1 §4.7): an article read as a narrated video with the account brand. */
export function articleMode(
  deps: StockEngineDeps & { llmConfigured: boolean },
): ModeDefinition<ArticleRequest> {
  return {
    name: 'article',
    endpoint: 'blog-to-video',
    title: 'Article to video',
    description:
      'Turns an article into a narrated vertical video: the title opens, the article’s opening sentences (markdown stripped) are read to fit the duration, the call to action closes. Uses the account brand, or the brand kit brand_id selects.',
    schema: articleRequestSchema,
    aliases: ARTICLE_ALIASES,
    prepare: prepareArticleBody,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: false,
    privateDelivery: false,
    identicalRequestProtection: true,
    async validate(request, services) {
      const source = articleSource(request);
      if (!source) {
        throw invalidInputError([
          {
            field: 'article_url',
            message: 'names no topic on its own; send article_title, article_text or article_summary too',
          },
        ]);
      }
      if (source.kind === 'article' && source.narration.sentencesUsed === 0) {
        throw invalidInputError([
          {
            field: source.narration.source,
            message: 'has nothing to narrate once markdown, code, images and links are removed',
          },
        ]);
      }
      const script =
        source.kind === 'script'
          ? source.script
          : source.kind === 'article'
            ? source.narration.script
            : undefined;
      const kit = await resolveKitForBrief(request, services, {
        article_title: request.article_title,
        article_summary: request.article_summary,
        ...(source.kind === 'article' ? { [source.narration.source]: source.narration.script } : {}),
        script: request.script,
        cta_text: request.cta_text,
      });
      const language = videoLanguage(request.language, kit);
      await validateStockInput(
        {
          ...request,
          script,
          language,
          captions: request.caption_style.preset !== 'none',
        },
        services,
        { llmConfigured: deps.llmConfigured, narrator: deps.narrator },
      );
      if (!kit) await checkSavedLogo((await accountBrand(services))?.logo_url, services.urlGuard);
      return withFootageMatchCheck(
        kit ? { ...request, brand_kit: kit } : request,
        {
          script,
          language,
          assetUrls: request.asset_urls,
          footageKeywords: articleFootageKeywords(request),
          excludeKeywords: request.exclude_keywords,
        },
        services,
        deps.library,
      );
    },
    answerHeaders: (request) => brandKitHeaders(request.brand_kit),
    price: articlePrice,
    estimate: (request) => ({
      renderSeconds: stockRenderEstimate(request.duration_sec),
      durationSec: request.duration_sec,
      script: scriptProvenance(articleScriptSource(articleSource(request), deps.llmConfigured)),
      warnings: [
        ...sourceWarnings(request, articleSource(request)),
        ...(request.asset_urls.length > 0 ? [] : nicheWarnings(request.clip_type)),
        ...footageMatchWarnings(request),
        ...brandKitWarnings(request),
      ],
    }),
    async run(ctx) {
      const r = ctx.request;
      const source = articleSource(r)!;
      // The account brand, or the kit's (a brand sent with the request is not this mode's).
      const branding = await videoBranding({ brand_kit: r.brand_kit }, ctx);
      const { brand, brandContext, logoPath, captionFont } = branding;
      const script =
        source.kind === 'script'
          ? source.script
          : source.kind === 'article'
            ? source.narration.script
            : undefined;
      const brief =
        [r.article_title, r.article_summary].filter(Boolean).join('. ') ||
        (source.kind === 'written' ? source.topic : (script ?? '').slice(0, 500));
      const output = await runStockEngine(
        ctx,
        {
          brief,
          ...(source.kind === 'written'
            ? { topic: source.topic, cta: r.cta_text, includeHook: r.include_hook }
            : { script, scriptSource: source.kind === 'article' ? 'material' : 'request' }),
          contentPurpose: r.content_purpose,
          contentStyle: r.content_style,
          durationSec: r.duration_sec,
          voiceSpeed: r.voice_speed,
          language: videoLanguage(r.language, r.brand_kit),
          voiceId: r.voice_id,
          voiceGender: r.voice_gender,
          clipType: r.clip_type,
          footageKeywords: articleFootageKeywords(r),
          excludeKeywords: r.exclude_keywords,
          assetUrls: r.asset_urls,
          captionStyle: r.caption_style,
          music: r.music,
          includeBranding: r.include_branding,
          progressBar: r.progress_bar,
          brand,
          ...(brandContext ? { brandContext } : {}),
          ...(logoPath ? { logoPath } : {}),
          ...(captionFont ? { captionFont } : {}),
          platforms: r.platforms,
        },
        deps,
      );
      return {
        ...output,
        artifacts: {
          ...output.artifacts,
          brand: branding.source,
          article: {
            ...(r.article_url ? { url: r.article_url } : {}),
            ...(r.article_title ? { title: r.article_title } : {}),
            categories: r.categories,
            tags: r.tags,
            narration:
              source.kind === 'article'
                ? {
                    source: source.narration.source,
                    sentences_used: source.narration.sentencesUsed,
                    sentences_available: source.narration.sentencesAvailable,
                  }
                : { source: source.kind === 'script' ? 'script' : 'written' },
          },
        },
      };
    },
  };
}
