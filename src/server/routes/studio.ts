// The Studio (docs/studio.md): a web page for an account's key holder, served as plain files (ES modules and
// web components, no build step). The page holds the key in its session and calls only the public /api/v1
// routes. Third-party files come from node_modules (uPlot for the usage chart); nothing from a CDN.
import { createReadStream, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

export const STUDIO_PATH = '/studio';
const STUDIO_DIR = fileURLToPath(new URL('../../studio/public/', import.meta.url));
const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot'));
/** The uPlot files the page loads: its ES module and its stylesheet. */
const UPLOT_FILES = new Set(['uPlot.esm.js', 'uPlot.min.css']);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The page runs only its own scripts; media and streams may be on PUBLIC_BASE_URL, which need not be the
 * address the browser used (localhost against 127.0.0.1), so those are not limited to 'self'.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  'img-src * data:',
  'media-src *',
  "connect-src 'self' http: https: ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const fileParams = z.object({ file: z.string().describe('A file name.') });

const DOCS = {
  root: {
    summary: 'Start page',
    description: 'Sends a browser to the Studio.',
    tags: ['Studio'],
    successStatus: 302,
    produces: ['text/html'],
  },
  page: {
    summary: 'Studio page',
    description:
      'A web page to make, watch and manage videos with an API key, kept in the browser session only (docs/studio.md).',
    tags: ['Studio'],
    produces: ['text/html'],
  },
  asset: {
    summary: 'Files of the Studio page',
    tags: ['Studio'],
    params: fileParams,
    produces: ['text/javascript', 'text/css', 'image/svg+xml'],
    errors: ['NOT_FOUND'],
  },
  vendor: {
    summary: 'uPlot files of the Studio page',
    description: 'The charting library of the usage chart, from node_modules.',
    tags: ['Studio'],
    params: fileParams,
    produces: ['text/javascript', 'text/css'],
    errors: ['NOT_FOUND'],
  },
} satisfies Record<string, RouteDocs>;

export function registerStudioRoutes(app: FastifyInstance, _ctx: AppContext): void {
  const assets = new Set(readdirSync(STUDIO_DIR).filter((file) => CONTENT_TYPES[extname(file)]));
  const send = (dir: string, file: string, cache: string) => (reply: FastifyReply) =>
    reply
      .header('content-type', CONTENT_TYPES[extname(file)]!)
      .header('cache-control', cache)
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(join(dir, file)));

  app.get('/', { config: { auth: false, docs: DOCS.root } }, async (_request, reply) =>
    reply.redirect(STUDIO_PATH),
  );

  app.get(STUDIO_PATH, { config: { auth: false, docs: DOCS.page } }, async (_request, reply) =>
    send(
      STUDIO_DIR,
      'index.html',
      'no-cache',
    )(reply.header('referrer-policy', 'no-referrer').header('content-security-policy', PAGE_POLICY)),
  );

  app.get<{ Params: { file: string } }>(
    `${STUDIO_PATH}/assets/:file`,
    { config: { auth: false, docs: DOCS.asset } },
    async (request, reply) => {
      const { file } = request.params;
      if (!assets.has(file) || file === 'index.html') throw errors.notFound(`The file ${file}`);
      return send(STUDIO_DIR, file, 'no-cache')(reply);
    },
  );

  app.get<{ Params: { file: string } }>(
    `${STUDIO_PATH}/vendor/uplot/:file`,
    { config: { auth: false, docs: DOCS.vendor } },
    async (request, reply) => {
      const { file } = request.params;
      if (!UPLOT_FILES.has(file)) throw errors.notFound(`The file ${file}`);
      return send(UPLOT_DIR, file, 'public, max-age=86400')(reply);
    },
  );
}
