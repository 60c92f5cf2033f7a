// The account library (spec 2 §4.4; docs/library.md): list and read generated videos. Free metadata reads.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Library } from '../../library/library.ts';
import { libraryListQuerySchema, libraryVideoParamsSchema } from '../../library/library-query.ts';
import { libraryPageSchema, libraryVideoSchema } from '../../library/library-video.ts';
import { successBody, type Meta } from '../../platform/envelope.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';

const BASE = '/api/v1/b2b/library/videos';

function meta(request: FastifyRequest): Meta {
  return { request_id: request.id, key_mode: callerOf(request).sandbox ? 'sandbox' : 'live' };
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInputError(fieldIssues(result.error));
  return result.data;
}

export function registerLibraryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const library = new Library(ctx.pool, ctx.store);

  app.get(
    BASE,
    {
      config: {
        rateLimit: 'metadata',
        docs: {
          summary: 'List the generated videos of the account, newest first',
          description:
            'Keyset pages: send the next_cursor of a page as cursor to read the next one. Completed videos carry signed links (24 h).',
          tags: ['Library'],
          query: libraryListQuerySchema,
          response: libraryPageSchema,
          errors: ['INPUT_INVALID'],
        },
      },
    },
    async (request) => {
      const query = parsed(libraryListQuerySchema, request.query);
      return successBody(await library.list(callerOf(request), query), meta(request));
    },
  );

  app.get<{ Params: { video_id: string } }>(
    `${BASE}/:video_id`,
    {
      config: {
        rateLimit: 'metadata',
        docs: {
          summary: 'Read one generated video of the account (no media links)',
          description:
            'A missing video and another account’s video are both 404 VIDEO_NOT_FOUND; an id that is not 24 hex characters is 400 INPUT_INVALID.',
          tags: ['Library'],
          params: libraryVideoParamsSchema,
          response: libraryVideoSchema,
          errors: ['INPUT_INVALID', 'VIDEO_NOT_FOUND'],
        },
      },
    },
    async (request) => {
      const { video_id: videoId } = parsed(libraryVideoParamsSchema, request.params);
      return successBody(await library.read(callerOf(request), videoId), meta(request));
    },
  );
}
