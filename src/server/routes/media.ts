import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  ass: 'text/x-ssa',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
};

const MEDIA_DOCS: RouteDocs = {
  summary: 'Download a file',
  description:
    'A stored file (video, poster, captions, transcript) behind the expiring signed link a job record gives; byte ranges are served (206, 416 outside the file). Poll the job for fresh links.',
  tags: ['Jobs'],
  query: z.object({
    expires: z.string().describe('Unix time the link expires at.'),
    sig: z.string().describe('The link signature.'),
  }),
  produces: [...new Set(Object.values(CONTENT_TYPES)), 'application/octet-stream'],
  errors: ['NOT_FOUND'],
  headers: { 'accept-ranges': 'bytes', 'content-range': 'The bytes sent, on a 206 answer.' },
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
      const path = ctx.store.localPath(key);
      const info = path ? await stat(path).catch(() => undefined) : undefined;
      if (!path || !info?.isFile()) throw errors.notFound('The file');
      const type = CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
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
