// Public listing (spec 1 §4.2 `listing`, docs/studio.md): GET /v/{video_id}, /discover, /sitemap.xml and
// /feed.xml, without a key. Only finished videos whose listing is public appear; any other id is a 404.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  atomFeed,
  discoveryPage,
  escapeHtml,
  sitemap,
  SITE_NAME,
  watchPage,
} from '../../studio/public-pages.ts';
import { findPublicVideo, listPublicVideos } from '../../studio/public-videos.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

const HTML = 'text/html; charset=utf-8';

const DOCS = {
  watch: {
    summary: 'Public watch page',
    description:
      'The page of a public video: player, title, description, poster, Open Graph tags and schema.org VideoObject data; media links are signed when the page is made. A private or unknown video is a 404.',
    tags: ['Public pages'],
    params: z.object({ videoId: z.string().describe('The video_id of a job.') }),
    produces: ['text/html'],
    errors: ['NOT_FOUND'],
  },
  discover: {
    summary: 'Discovery page',
    description: 'The newest public videos.',
    tags: ['Public pages'],
    produces: ['text/html'],
  },
  sitemap: {
    summary: 'Sitemap',
    description: 'The discovery page and every listed watch page (sitemaps.org).',
    tags: ['Public pages'],
    produces: ['application/xml'],
  },
  feed: {
    summary: 'Atom feed of public videos',
    description: 'The newest public videos, each with its watch page and a signed video link.',
    tags: ['Public pages'],
    produces: ['application/atom+xml'],
  },
} satisfies Record<string, RouteDocs>;

// The pages run no script at all (the JSON-LD block is data); media links may be on PUBLIC_BASE_URL.
const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src * data:; media-src *; base-uri 'none'; form-action 'none'";

// Listing can be switched off at any moment, so nothing here may be served from a cache without asking.
const fresh = (reply: FastifyReply, type: string) =>
  reply
    .header('content-type', type)
    .header('cache-control', 'no-cache')
    .header('content-security-policy', PAGE_POLICY);

export function registerPublicPageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const baseUrl = ctx.config.publicBaseUrl;

  app.get<{ Params: { videoId: string } }>(
    '/v/:videoId',
    { config: { auth: false, docs: DOCS.watch } },
    async (request, reply) => {
      const video = await findPublicVideo(ctx.db, ctx.store, request.params.videoId);
      if (!video)
        return fresh(reply.status(404), HTML).send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found · ${SITE_NAME}</title></head><body><h1>Not found</h1><p>No public video ${escapeHtml(request.params.videoId)}. <a href="/discover">Public videos</a></p></body></html>`,
        );
      return fresh(reply, HTML).send(watchPage(video, baseUrl));
    },
  );

  app.get('/discover', { config: { auth: false, docs: DOCS.discover } }, async (_request, reply) =>
    fresh(reply, HTML).send(discoveryPage(await listPublicVideos(ctx.db, ctx.store))),
  );

  app.get('/sitemap.xml', { config: { auth: false, docs: DOCS.sitemap } }, async (_request, reply) =>
    fresh(reply, 'application/xml; charset=utf-8').send(
      sitemap(await listPublicVideos(ctx.db, ctx.store), baseUrl),
    ),
  );

  app.get('/feed.xml', { config: { auth: false, docs: DOCS.feed } }, async (_request, reply) =>
    fresh(reply, 'application/atom+xml; charset=utf-8').send(
      atomFeed(await listPublicVideos(ctx.db, ctx.store), baseUrl),
    ),
  );
}
