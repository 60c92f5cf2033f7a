import type { FastifyInstance } from 'fastify';
import { ArticleService, ARTICLES_PATH } from '../../publishing/articles/index.ts';
import { StoryFinder } from '../../signals/stories/story-finder.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

// POST /articles (spec 1 §4.11): an SEO article, paid per request; writers, gates, destinations and billing in
// docs/publishing.md.

export function registerArticleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const articles = new ArticleService({
    db: ctx.db,
    idempotency: ctx.idempotency,
    urlGuard: ctx.urlGuard,
    stories: new StoryFinder({ trends: ctx.radar, db: ctx.db }),
    config: ctx.config,
    log: ctx.log,
  });

  app.post(ARTICLES_PATH, async (request, reply) => {
    const answer = await articles.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });
}
