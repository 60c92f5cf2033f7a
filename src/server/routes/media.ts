import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import { isExpiredJobMedia } from '../../platform/retention/media-retention.ts';
import { CONTENT_TYPES, contentTypeOf } from '../../platform/storage/content-types.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

const MEDIA_DOCS: RouteDocs = {
  summary: 'Download a file',
  description:
    'A stored file (video, poster, captions, transcript) behind the expiring signed link a job record gives; byte ranges are served (206, 416 outside the file). With an S3 media store the answer is a 302 to a presigned link of the bucket, expiring with this link, which serves the bytes and ranges itself. Poll the job for fresh links.',
  tags: ['Jobs'],
  query: z.object({
    expires: z.string().describe('Unix time the link expires at.'),
    sig: z.string().describe('The link signature.'),
  }),
  produces: [...new Set(Object.values(CONTENT_TYPES)), 'application/octet-stream'],
  errors: ['NOT_FOUND', 'MEDIA_EXPIRED'],
  headers: {
    'accept-ranges': 'bytes',
    'content-range': 'The bytes sent, on a 206 answer.',
    location: 'On a 302 (S3 media store): the presigned link of the bucket.',
  },
};

/** GET /media/<key>?expires=…&sig=…: serves stored files behind expiring signed links, with byte ranges. */
export function registerMediaRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { '*': string }; Querystring: { expires?: string; sig?: string } }>(
    '/media/*',
    { config: { auth: false, docs: MEDIA_DOCS } },
    async (request, reply) => {
      const key = request.params['*'];
      const { expires = '', sig = '' } = request.query;
      if (!ctx.store.verify(key, expires, sig))
        throw errors.notFound('This link is invalid or has expired; poll the job for a fresh one. The file');
      const answer = await ctx.store.answer(key, new Date(Number(expires) * 1000));
      if (answer && 'redirect' in answer)
        return reply.header('cache-control', 'private, no-store').redirect(answer.redirect, 302);
      const path = answer?.file;
      const info = path ? await stat(path).catch(() => undefined) : undefined;
      if (!path || !info?.isFile()) {
        if (await isExpiredJobMedia(ctx.db, key)) throw errors.mediaExpired();
        throw errors.notFound('The file');
      }
      const type = contentTypeOf(key);
      void reply
        .header('content-type', type)
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=3600');
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
      if (range && (range[1] || range[2])) {
        const size = info.size;
        let start = range[1] ? Number(range[1]) : size - Number(range[2]);
        let end = range[1] && range[2] ? Number(range[2]) : size - 1;
        start = Math.max(0, start);
        end = Math.min(end, size - 1);
        if (start > end) return reply.status(416).header('content-range', `bytes */${size}`).send();
        return reply
          .status(206)
          .header('content-range', `bytes ${start}-${end}/${size}`)
          .header('content-length', end - start + 1)
          .send(createReadStream(path, { start, end }));
      }
      return reply.header('content-length', info.size).send(createReadStream(path));
    },
  );
}
