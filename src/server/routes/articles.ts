import type { FastifyInstance } from 'fastify';
import { ArticleService, ARTICLES_PATH } from '../../publishing/articles/index.ts';
import { StoryFinder } from '../../signals/stories/story-finder.ts';
import { articleRequestSchema } from '../../publishing/articles/article-request.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

// POST /articles (spec 1 §4.11): an SEO article, paid per request; writers, gates, destinations and billing in
// docs/publishing.md.

const DOCS: RouteDocs = {
  summary: 'Write an SEO article',
  description:
    'Markdown, HTML, JSON-LD and FAQ for a topic or pillar, charged only when the quality gates pass; published to WordPress and announced on Discord on request.',
  tags: ['Publishing'],
  body: articleRequestSchema,
  paid: true,
  idempotency: 'required',
  errors: [
    'DRY_RUN_NOT_SUPPORTED',
    'ARTICLE_QUALITY_FAILED',
    'ARTICLE_WRITER_UNAVAILABLE',
    'NO_STORY_AVAILABLE',
  ],
};

export function registerArticleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const articles = new ArticleService({
    db: ctx.db,
    idempotency: ctx.idempotency,
    urlGuard: ctx.urlGuard,
    stories: new StoryFinder({ trends: ctx.radar, db: ctx.db }),
    config: ctx.config,
    log: ctx.log,
  });

  app.post(ARTICLES_PATH, { config: { docs: DOCS } }, async (request, reply) => {
    const answer = await articles.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });
}
