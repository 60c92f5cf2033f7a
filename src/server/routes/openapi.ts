// GET /api/v1/openapi.json: the OpenAPI 3.1 document of every route this server registered, built once from the
// routes' own Zod schemas (src/server/openapi/). GET /docs: a reference page for people, drawn by Swagger UI
// from node_modules (no CDN, works offline). Neither needs a key.
import { createReadStream, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { collectedRoutes } from '../openapi/route-collector.ts';
import { SERVICE_VERSION } from './catalogs.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';
const DOCS_PATH = '/docs';
const ASSET_DIR = getAbsoluteFSPath();

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

const DESCRIPTION = [
  'Short-form video over HTTP and JSON (spec 1 and 2). Every /api/v1 answer is an envelope:',
  '`{ success: true, data, meta: { request_id } }` or `{ success: false, error: { code, message, retryable, details? }, meta }`.',
  'Send your key as `Authorization: Bearer <key>` or `X-API-Key: <key>`. Paid calls take an `Idempotency-Key` and',
  '`dry_run: true` (free validation and price). Request schemas are generated from the Zod schemas the routes validate with.',
].join(' ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Reelsmith API reference</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/reference.js"></script>
  </body>
</html>
`;

const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const assetParams = z.object({ file: z.string().describe('A file of the swagger-ui-dist package.') });

export function registerOpenApiRoutes(app: FastifyInstance, ctx: AppContext): void {
  let document: string | undefined;
  const openApiJson = () =>
    (document ??= JSON.stringify(
      buildOpenApiDocument(collectedRoutes(app), {
        title: 'Reelsmith API',
        version: SERVICE_VERSION,
        description: DESCRIPTION,
        serverUrl: ctx.config.publicBaseUrl,
      }),
    ));
  // Built once the app is ready (every route, those of plugins included, is registered by then), so a schema
  // the document cannot describe stops the start rather than the first request.
  app.addHook('onReady', async () => void openApiJson());

  app.get(
    OPENAPI_PATH,
    {
      config: {
        auth: false,
        docs: {
          summary: 'This OpenAPI 3.1 document',
          description:
            'Every route this server serves, generated at start from the Zod schemas its routes validate with.',
          tags: ['Reference'],
          produces: ['application/json'],
        },
      },
    },
    async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').send(openApiJson()),
  );

  app.get(
    DOCS_PATH,
    {
      config: {
        auth: false,
        docs: { summary: 'API reference page', tags: ['Reference'], produces: ['text/html'] },
      },
    },
    async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').send(PAGE),
  );

  app.get(
    `${DOCS_PATH}/reference.js`,
    {
      config: {
        auth: false,
        docs: { summary: 'Script of the reference page', tags: ['Reference'], produces: ['text/javascript'] },
      },
    },
    async (_request, reply) => reply.header('content-type', CONTENT_TYPES['.js']!).send(START_SCRIPT),
  );

  const assets = new Set(readdirSync(ASSET_DIR));
  app.get<{ Params: { file: string } }>(
    `${DOCS_PATH}/:file`,
    {
      config: {
        auth: false,
        docs: {
          summary: 'Files of the reference page (Swagger UI)',
          tags: ['Reference'],
          params: assetParams,
          produces: ['text/javascript', 'text/css', 'image/png'],
          errors: ['NOT_FOUND'],
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const type = CONTENT_TYPES[extname(file)];
      if (!assets.has(file) || !type) throw errors.notFound(`The file ${file}`);
      return reply
        .header('content-type', type)
        .header('cache-control', 'public, max-age=86400')
        .send(createReadStream(join(ASSET_DIR, file)));
    },
  );
}
