// POST /articles (spec 1 §4.11; docs/publishing.md): writes an SEO article while the caller waits, checks it
// against the quality gates, charges it, then publishes it to WordPress and announces it on Discord when asked.
//
// Money follows the paid synchronous routes (src/signals/paid-read.ts): the work runs before the charge, so a
// refusal (400), an article that fails its gates (422) or a writer failure (503) is never charged. The charge and
// the answer stored under the Idempotency-Key commit together, before anything leaves the service: a crash
// while publishing leaves a charged article whose answer a retry with the same key replays (its destinations
// "pending"), never a second charge or a second post. A publish or notify failure after that does not undo the
// article: the answer (200) names the failed destination and its error, and the article stays charged.
import type { Logger } from 'pino';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/database.ts';
import { successBody, type Meta } from '../../platform/envelope.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { isDryRun } from '../../platform/generation/parse-request.ts';
import { chargeHeaders, errorAnswer, type Answer, type Caller } from '../../platform/generation/submit.ts';
import {
  validateIdempotencyKey,
  type Claim,
  type Idempotency,
} from '../../platform/idempotency/idempotency.ts';
import { randomToken } from '../../platform/ids.ts';
import { balanceOf, charge } from '../../platform/ledger/ledger.ts';
import type { Price } from '../../platform/modes/mode.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { PRICE_TABLE } from '../../platform/pricing/price-table.ts';
import { ProviderError } from '../../providers/openai-llm.ts';
import type { StoryFinder } from '../../signals/stories/story-finder.ts';
import type { ArticleBrief, ArticleDraft } from './article-draft.ts';
import { articleErrors } from './article-errors.ts';
import { articleMarkdown, renderArticle, type RenderedArticle } from './article-render.ts';
import { parseArticleRequest, type ArticleRequest } from './article-request.ts';
import { destinationFailure } from './destination-error.ts';
import { notifyDiscord } from './discord-client.ts';
import { primaryKeyword, secondaryKeywords } from './keywords.ts';
import { LlmArticleWriter } from './llm-article-writer.ts';
import { writeEvergreenArticle, writeTrendArticle } from './local-article-writer.ts';
import { checkQuality, type QualityReport } from './quality-gates.ts';
import { findTrendMaterial, type TrendMaterial } from './trend-material.ts';
import { publishToWordPress } from './wordpress-client.ts';

export const ARTICLES_PATH = '/api/v1/articles';
export const ARTICLE_OPERATION = 'seo_article';
const ENDPOINT = 'articles';

export interface ArticleServiceDeps {
  db: Db;
  idempotency: Idempotency;
  urlGuard: Pick<UrlGuard, 'request'>;
  stories: Pick<StoryFinder, 'find'>;
  config: Pick<Config, 'llm' | 'articles'>;
  log: Logger;
  now?: () => Date;
}

export interface ArticleCall {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  body: unknown;
}

type Writer = 'local' | 'llm';

interface Written {
  draft: ArticleDraft;
  report: QualityReport;
  writer: Writer;
  material: TrendMaterial | undefined;
  warnings: string[];
}

type DestinationStatus = 'not_requested' | 'skipped' | 'pending' | 'published' | 'sent' | 'failed';

interface DestinationOutcome {
  requested: boolean;
  status: DestinationStatus;
  [field: string]: unknown;
}

interface Destinations {
  wordpress: DestinationOutcome;
  discord: DestinationOutcome;
}

const LOCAL_WRITER_NOTICE = {
  evergreen:
    'Written by the local writer from your brief alone: a practical framework around the subject (what to pin down, why it matters, steps, common mistakes, FAQ) that states no facts beyond your brief. An LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL on the server) writes articles with subject knowledge; contentType "trend" draws on live reporting.',
  trend:
    "Written by the local writer: the article quotes the trend's reports in their own words, names and links their publishers, and adds only what the trends radar measured. An LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL on the server) writes an article from the same reports.",
};

function newArticleId(sandbox: boolean): string {
  return `${sandbox ? 'sandbox_art_' : 'art_'}${randomToken(20)}`;
}

function notRequested(): DestinationOutcome {
  return { requested: false, status: 'not_requested' };
}

export class ArticleService {
  private readonly llm: LlmArticleWriter | undefined;
  private readonly now: () => Date;

  constructor(private readonly deps: ArticleServiceDeps) {
    this.llm = deps.config.llm ? new LlmArticleWriter(deps.config.llm) : undefined;
    this.now = deps.now ?? (() => new Date());
  }

  /** Validates before anything is claimed or charged: these refusals are free and not stored under the key. */
  private validate(call: ArticleCall): ArticleRequest {
    if (isDryRun(call.body)) throw errors.dryRunNotSupported('/articles');
    validateIdempotencyKey(call.idempotencyKey);
    if (!call.caller.sandbox && call.idempotencyKey === undefined) throw errors.idempotencyKeyRequired();
    const request = parseArticleRequest(call.body);
    const { articles } = this.deps.config;
    if (request.autoPublish && !articles.wordpress)
      throw articleErrors.destinationNotConfigured(
        'autoPublish',
        'a WordPress site',
        'WORDPRESS_BASE_URL, WORDPRESS_USERNAME and WORDPRESS_APP_PASSWORD',
      );
    if (request.notifyDiscord && !articles.discordWebhookUrl)
      throw articleErrors.destinationNotConfigured(
        'notifyDiscord',
        'a Discord webhook',
        'DISCORD_WEBHOOK_URL',
      );
    return request;
  }

  async create(call: ArticleCall): Promise<Answer> {
    const request = this.validate(call);
    const { caller } = call;
    let claim: Claim | undefined;
    if (call.idempotencyKey !== undefined) {
      // Idempotency by key alone (spec 1 §4.11): no identical-body protection.
      const claimed = await this.deps.idempotency.claim({
        accountId: caller.accountId,
        endpoint: ENDPOINT,
        key: call.idempotencyKey,
        body: call.body,
        repeatToken: undefined,
        identical: false,
      });
      if (claimed.kind === 'replay') return { ...claimed.answer, replay: claimed.match };
      claim = claimed.claim;
    }
    try {
      const answer = await this.answer(call, request, claim);
      await claim?.record(answer);
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.code !== 'REQUEST_IN_PROGRESS') {
        const answer = errorAnswer(error, call.requestId);
        await claim?.record(answer);
        return answer;
      }
      await claim?.release();
      throw error;
    }
  }

  private async answer(
    call: ArticleCall,
    request: ArticleRequest,
    claim: Claim | undefined,
  ): Promise<Answer> {
    const { caller, requestId } = call;
    const { db } = this.deps;
    const cents = caller.sandbox ? 0 : PRICE_TABLE[ARTICLE_OPERATION].usdCents;
    if (!caller.sandbox) {
      // 402 before any writing; the charge itself is what guards the balance.
      const balance = await balanceOf(db, caller.accountId);
      if (balance < cents) throw errors.insufficientCredits(cents, balance);
    }
    const started = performance.now();
    const written = await this.write(request, caller.sandbox);
    if (!written.report.passed)
      throw articleErrors.qualityFailed(
        written.report.gates.filter((g) => !g.passed),
        written.writer,
      );
    const articleId = newArticleId(caller.sandbox);
    const rendered = renderArticle(written.draft, {
      wordCount: written.report.wordCount,
      publishedAt: this.now(),
    });
    const price = this.price(written.writer, request, cents);
    const seconds = Math.max(1, Math.ceil((performance.now() - started) / 1000));
    const answerFor = (balance: number, destinations: Destinations): Answer => {
      const meta: Meta = {
        request_id: requestId,
        credits_used: cents,
        credits_remaining: balance,
        ...(caller.sandbox ? { sandbox: true } : {}),
        ...(written.warnings.length > 0 ? { warnings: written.warnings } : {}),
      };
      return {
        status: 200,
        body: successBody(this.present(articleId, request, written, rendered, destinations), meta),
        headers: chargeHeaders(price, seconds),
        jobIds: [],
      };
    };

    if (caller.sandbox) {
      const skipped = (requested: boolean): DestinationOutcome =>
        requested
          ? { requested, status: 'skipped', reason: 'Sandbox keys never publish or notify.' }
          : notRequested();
      return answerFor(await balanceOf(db, caller.accountId), {
        wordpress: skipped(request.autoPublish),
        discord: skipped(request.notifyDiscord),
      });
    }

    const pending = (requested: boolean): DestinationOutcome =>
      requested
        ? {
            requested,
            status: 'pending',
            reason: 'Delivery had not finished when this answer was stored; check the destination itself.',
          }
        : notRequested();
    const balance = await db.transaction().execute(async (tx) => {
      const after = await charge(tx, caller.accountId, cents, articleId, ARTICLE_OPERATION);
      await claim?.accept(
        tx,
        answerFor(after, {
          wordpress: pending(request.autoPublish),
          discord: pending(request.notifyDiscord),
        }),
      );
      return after;
    });
    return answerFor(balance, await this.deliver(articleId, request, written, rendered));
  }

  private price(writer: Writer, request: ArticleRequest, cents: number): Price {
    const model = writer === 'llm' ? `llm:${this.deps.config.llm!.model}` : 'local';
    return {
      usdCents: cents,
      breakdown: [{ item: ARTICLE_OPERATION, usd_cents: cents, quantity: 1, unit: 'request' }],
      tool: ARTICLE_OPERATION,
      model,
      tier: request.contentType,
      engine: PRICE_TABLE[ARTICLE_OPERATION].engine,
    };
  }

  /** The article and its quality report; the LLM writes it when configured (never for sandbox keys). */
  private async write(request: ArticleRequest, sandbox: boolean): Promise<Written> {
    const keyword = primaryKeyword(request);
    const warnings: string[] = [];
    let material: TrendMaterial | undefined;
    if (request.contentType === 'trend') {
      const keywords = [
        ...new Set([request.topic, keyword, request.topic ? undefined : request.pillar]),
      ].filter((k): k is string => k !== undefined);
      const found = await findTrendMaterial(this.deps, keywords);
      material = found.material;
      warnings.push(...found.warnings);
    }
    const extra = material ? [material.trend.topic, ...material.reports.map((r) => r.title)] : [];
    const brief: ArticleBrief = {
      ...(request.topic ? { topic: request.topic } : {}),
      ...(request.pillar ? { pillar: request.pillar } : {}),
      primaryKeyword: keyword,
      secondaryKeywords: secondaryKeywords(keyword, request, extra),
    };
    const check = (draft: ArticleDraft): QualityReport =>
      checkQuality({
        markdown: articleMarkdown(draft),
        title: draft.title,
        metaDescription: draft.metaDescription,
        primaryKeyword: draft.primaryKeyword,
      });

    if (this.llm && !sandbox) {
      try {
        const result = await this.llm.write({ ...brief, contentType: request.contentType, material }, check);
        if (result.revisedFor.length > 0)
          warnings.push(
            `The LLM's first draft failed the ${result.revisedFor.join(', ')} gate${result.revisedFor.length === 1 ? '' : 's'} and was revised once.`,
          );
        return { draft: result.draft, report: result.report, writer: 'llm', material, warnings };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        this.deps.log.warn({ err: error }, 'the LLM could not write an article');
        throw articleErrors.writerUnavailable(error.message, error.retryable);
      }
    }
    if (this.llm)
      warnings.push('Sandbox keys get the local writer’s article, free; live keys get the configured LLM’s.');
    const draft = material ? writeTrendArticle(brief, material, this.now()) : writeEvergreenArticle(brief);
    warnings.push(LOCAL_WRITER_NOTICE[material ? 'trend' : 'evergreen']);
    return { draft, report: check(draft), writer: 'local', material, warnings };
  }

  /** Publishes, then notifies (with the post's link when it was published); each outcome reported, none thrown. */
  private async deliver(
    articleId: string,
    request: ArticleRequest,
    written: Written,
    rendered: RenderedArticle,
  ): Promise<Destinations> {
    const { urlGuard, config, log } = this.deps;
    const { draft } = written;
    let wordpress = notRequested();
    let link: string | undefined;
    if (request.autoPublish && config.articles.wordpress) {
      try {
        const post = await publishToWordPress(urlGuard, config.articles.wordpress, {
          title: draft.title,
          contentHtml: rendered.contentHtml,
          excerpt: draft.metaDescription,
          slug: draft.slug,
        });
        link = post.link;
        wordpress = {
          requested: true,
          status: 'published',
          post_id: post.id,
          link: post.link,
          slug: post.slug,
        };
      } catch (error) {
        log.warn({ err: error, articleId }, 'article not published to WordPress');
        wordpress = { requested: true, status: 'failed', error: destinationFailure(error) };
      }
    }
    let discord = notRequested();
    if (request.notifyDiscord && config.articles.discordWebhookUrl) {
      try {
        const sent = await notifyDiscord(urlGuard, config.articles.discordWebhookUrl, {
          title: draft.title,
          description: draft.metaDescription,
          ...(link ? { url: link } : {}),
          primaryKeyword: draft.primaryKeyword,
          wordCount: written.report.wordCount,
        });
        discord = { requested: true, status: 'sent', message_id: sent.messageId };
      } catch (error) {
        log.warn({ err: error, articleId }, 'article not announced on Discord');
        discord = { requested: true, status: 'failed', error: destinationFailure(error) };
      }
    }
    return { wordpress, discord };
  }

  private present(
    articleId: string,
    request: ArticleRequest,
    written: Written,
    rendered: RenderedArticle,
    destinations: Destinations,
  ): Record<string, unknown> {
    const { draft, report, material } = written;
    return {
      article_id: articleId,
      writer: written.writer,
      ...(written.writer === 'llm' ? { model: this.deps.config.llm!.model } : {}),
      content_type: request.contentType,
      topic: request.topic ?? null,
      pillar: request.pillar ?? null,
      title: draft.title,
      meta_description: draft.metaDescription,
      slug: draft.slug,
      primary_keyword: draft.primaryKeyword,
      keywords: draft.secondaryKeywords,
      word_count: report.wordCount,
      markdown: rendered.markdown,
      html: rendered.html,
      content_html: rendered.contentHtml,
      json_ld: rendered.jsonLd,
      faq: draft.faq,
      sources: draft.sources,
      trend: material
        ? {
            id: material.trend.id,
            topic: material.trend.topic,
            urgency: material.trend.urgency,
            started_at: material.trend.startedAt,
            virality_score: material.trend.viralityScore,
            sources: material.sources.map((s) => ({
              ...s,
              read: material.reports.some((r) => r.url === s.url),
            })),
          }
        : null,
      quality: { passed: report.passed, gates: report.gates },
      destinations,
      ...(request.agent_run_id ? { agent_run_id: request.agent_run_id } : {}),
    };
  }
}
