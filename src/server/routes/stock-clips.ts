// The stock-clip library routes of document 2 §4.9 (/api/stock-clips): any key reads the server-wide
// library; changing it needs a live key of an operator account. Bodies are documented in docs/stock-clips.md.

import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { successBody } from '../../platform/envelope.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { errorAnswer, type Answer } from '../../platform/generation/submit.ts';
import { answerOnce } from '../../platform/idempotency/answer-once.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { serverSecret } from '../../platform/settings.ts';
import { mapMetadata, titleFromFilename, type ClipDescription } from '../../media/library/clip-metadata.ts';
import {
  receiveUpload,
  UploadTooLargeError,
  type ReceivedUpload,
} from '../../media/library/receive-upload.ts';
import {
  MAX_UPLOAD_BYTES,
  stockClipSchemas,
  type ExternalRecord,
  type StockClipSchemas,
} from '../../media/library/stock-clip-requests.ts';
import {
  presentClip,
  StockClipStore,
  stockClipErrors,
  type ClipRow,
} from '../../media/library/stock-clip-store.ts';
import { signUploadToken, verifyUploadToken } from '../../media/library/upload-token.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const BASE = '/api/stock-clips';
const UPLOAD_URL_TTL_SECONDS = 3600;
const CONFIRM = { method: 'POST', path: `${BASE}/confirm-upload` };

interface IdParams {
  id: string;
}

interface Outcome {
  status: number;
  data: unknown;
}

const uploadErrors = {
  urlInvalid: () =>
    new ApiError(
      403,
      'UPLOAD_URL_INVALID',
      'This upload URL is not one this server signed. Ask for a new one with POST /api/stock-clips/presigned-url.',
    ),
  urlExpired: () =>
    new ApiError(
      403,
      'UPLOAD_URL_EXPIRED',
      'This upload URL has expired. Ask for a new one with POST /api/stock-clips/presigned-url.',
    ),
  // The client may still be sending: closing the connection after the answer stops it.
  tooLarge: (limit: number) =>
    new ApiError(413, 'PAYLOAD_TOO_LARGE', `The upload is larger than the ${limit}-byte limit of this URL.`, {
      headers: { connection: 'close' },
    }),
  notRaw: () =>
    new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file itself as the body with Content-Type video/* (e.g. video/mp4) or application/octet-stream, e.g. curl --data-binary @clip.mp4 -H "Content-Type: video/mp4". Multipart forms are not accepted.',
      { headers: { connection: 'close' } },
    ),
  empty: () => errors.inputInvalid('The body is empty: send the video file as the request body.'),
};

const UPLOAD_TYPES = ['video/*', 'application/octet-stream'];
const OPERATOR = 'STOCK_LIBRARY_OPERATOR_REQUIRED';
const NOT_FOUND = 'STOCK_CLIP_NOT_FOUND';

/** The entries of these routes in the OpenAPI document, with the schemas they validate with. */
function stockClipDocs(schemas: StockClipSchemas) {
  const tags = ['Stock clips'];
  const write = { tags, idempotency: 'recommended' as const };
  return {
    list: { summary: 'List and search stock clips', tags, query: schemas.listQuery },
    stats: { summary: 'Stock library statistics', tags },
    pending: {
      summary: 'Clips waiting for their file',
      description: 'Pending clips, each with whether a file is staged and the next step to take.',
      tags,
      query: schemas.pendingQuery,
    },
    get: { summary: 'Read a stock clip', tags, errors: [NOT_FOUND] },
    patch: {
      summary: 'Retag a stock clip',
      tags,
      body: schemas.patch,
      errors: [OPERATOR, NOT_FOUND],
    },
    remove: { summary: 'Delete a stock clip', tags, errors: [OPERATOR, NOT_FOUND, 'STOCK_CLIP_GENERATED'] },
    presignedUrl: {
      ...write,
      summary: 'Get an upload URL',
      description:
        'A new pending clip (201), or an existing one (clip_id, 200), with a signed URL to PUT its file to, valid 1 hour.',
      body: schemas.presignedUrl,
      successStatus: 201,
      otherStatuses: { 200: 'An upload URL for an existing clip.' },
      errors: [OPERATOR, NOT_FOUND],
    },
    confirmUpload: {
      ...write,
      summary: 'Confirm an upload',
      description: 'Installs the staged file (or downloads the clip url) into the library.',
      body: schemas.confirmUpload,
      errors: [OPERATOR, NOT_FOUND, 'STOCK_CLIP_NO_MEDIA', 'INPUT_INVALID_MEDIA'],
    },
    extlibImport: {
      ...write,
      summary: 'Import from an external library',
      description: 'Records of an external library as pending clips (created or updated).',
      body: schemas.extlibImport,
      errors: [OPERATOR],
    },
    extlibSingle: {
      ...write,
      summary: 'Import one external record',
      body: schemas.extlibSingle,
      successStatus: 201,
      otherStatuses: { 200: 'The record was already imported and is updated.' },
      errors: [OPERATOR],
    },
    mapMetadata: {
      ...write,
      summary: 'Preview metadata mapping',
      description:
        'How titles, tags and niches of one record (or of clips[]) would be mapped; saves nothing.',
      body: schemas.mapMetadata,
    },
    incrementUsage: {
      ...write,
      summary: 'Count a use of a clip',
      body: schemas.incrementUsage,
      bodyRequired: false,
      errors: [OPERATOR, NOT_FOUND],
    },
    presignedUpload: {
      summary: 'Upload to a signed URL',
      description:
        'The file itself as the body; the signed URL authorizes it, no API key. Then confirm the upload.',
      tags,
      consumes: UPLOAD_TYPES,
      errors: [uploadErrors.urlInvalid(), uploadErrors.urlExpired(), uploadErrors.notRaw(), NOT_FOUND],
    },
    directUpload: {
      ...write,
      summary: 'Upload a clip directly',
      description: 'The file as the body and its metadata in the query; installed at once.',
      query: schemas.directUploadQuery,
      consumes: UPLOAD_TYPES,
      successStatus: 201,
      errors: [OPERATOR, uploadErrors.notRaw(), 'INPUT_INVALID_MEDIA'],
    },
    upload: {
      ...write,
      summary: "Upload a pending clip's file",
      consumes: UPLOAD_TYPES,
      errors: [OPERATOR, NOT_FOUND, uploadErrors.notRaw(), 'INPUT_INVALID_MEDIA'],
    },
  } satisfies Record<string, RouteDocs>;
}

function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw invalidInputError(fieldIssues(result.error));
  return result.data;
}

function send(request: FastifyRequest, reply: FastifyReply, outcome: Outcome): FastifyReply {
  return reply.status(outcome.status).send(successBody(outcome.data, { request_id: request.id }));
}

/** The raw body stream of an upload route (see the content-type parsers below). */
function rawBody(request: FastifyRequest, limit: number): Readable {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw uploadErrors.tooLarge(limit);
  if (request.body === undefined || request.body === null || declared === 0) throw uploadErrors.empty();
  if (!(request.body instanceof Readable)) throw uploadErrors.notRaw();
  return request.body;
}

async function receive(body: Readable, path: string, maxBytes: number): Promise<ReceivedUpload> {
  try {
    const received = await receiveUpload(body, path, { maxBytes });
    if (received.bytes === 0) {
      await rm(path, { force: true });
      throw uploadErrors.empty();
    }
    return received;
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw uploadErrors.tooLarge(maxBytes);
    throw error;
  }
}

function describedClip(fields: {
  title?: string;
  filename?: string;
  description?: string;
  tags?: string[];
  niches?: ClipDescription['niches'];
}): ClipDescription {
  const title = fields.title ?? titleFromFilename(fields.filename ?? '');
  if (!title) {
    throw invalidInputError([
      { field: 'title', message: 'is required (the filename has no name to derive it from)' },
    ]);
  }
  return { title, description: fields.description, tags: fields.tags ?? [], niches: fields.niches };
}

function nextStep(clip: ClipRow, staged: boolean): { action: string; how: string } {
  if (staged) return { action: 'confirm', how: `POST ${BASE}/confirm-upload {"clip_id":"${clip.id}"}` };
  if (clip.origin_url) {
    return {
      action: 'confirm',
      how: `POST ${BASE}/confirm-upload {"clip_id":"${clip.id}"} downloads its url`,
    };
  }
  return {
    action: 'upload',
    how: `POST ${BASE}/${clip.id}/upload with the file, or PUT it to a presigned URL`,
  };
}

export function registerStockClipRoutes(app: FastifyInstance, ctx: AppContext): void {
  const store = new StockClipStore(ctx.db, ctx.config.libraryDir, ctx.store);
  const { idempotency } = ctx;
  const schemas = stockClipSchemas((raw) => {
    try {
      ctx.urlGuard.checkUrlSyntax(raw);
      return undefined;
    } catch (error) {
      if (error instanceof UrlRejectedError) return error.message;
      throw error;
    }
  });
  const docs = stockClipDocs(schemas);
  let secret: Promise<string> | undefined;
  const uploadSecret = (): Promise<string> =>
    (secret ??= serverSecret(ctx.db, 'stock_clip_upload_secret').catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));

  async function requireOperator(request: FastifyRequest): Promise<string> {
    const caller = callerOf(request);
    if (caller.sandbox || !(await store.isOperator(caller.accountId)))
      throw stockClipErrors.operatorRequired();
    return caller.accountId;
  }

  /** Runs a POST once per Idempotency-Key: a replay with the same key and body gets the stored answer. */
  async function once(
    request: FastifyRequest,
    reply: FastifyReply,
    endpoint: string,
    body: unknown,
    run: () => Promise<Outcome>,
  ): Promise<FastifyReply> {
    const answer = await answerOnce(
      idempotency,
      {
        accountId: callerOf(request).accountId,
        endpoint: `stock-clips/${endpoint}`,
        key: idempotencyKeyOf(request),
        body,
      },
      async (): Promise<Answer> => {
        const outcome = await run();
        return {
          status: outcome.status,
          body: successBody(outcome.data, { request_id: request.id }),
          headers: {},
          jobIds: [],
        };
      },
      (error) => errorAnswer(error, request.id),
    );
    return sendAnswer(request, reply, answer);
  }

  async function importRecord(
    record: ExternalRecord,
    library: string,
    accountId: string,
    ex?: Parameters<StockClipStore['upsertExternal']>[1],
  ) {
    const mapping = mapMetadata({
      title: record.title,
      description: record.description,
      tags: record.tags,
      niches: record.niches,
    });
    const { row, created } = await store.upsertExternal(
      {
        title: mapping.title,
        description: record.description,
        tags: mapping.tags,
        niches: mapping.niches,
        attribution: record.attribution,
        source: 'imported',
        createdBy: accountId,
        originUrl: record.url,
        externalSource: library,
        externalId: record.external_id,
        durationSec: record.duration_sec,
        width: record.width,
        height: record.height,
      },
      ex,
    );
    return {
      clip: presentClip(row),
      created,
      niche_source: mapping.niche_source,
      niche_reason: mapping.niche_reason,
    };
  }

  app.get(BASE, { config: { rateLimit: 'metadata', docs: docs.list } }, async (request) => {
    const query = parse(schemas.listQuery, request.query);
    const page = await store.list(query);
    return successBody(
      {
        clips: page.clips.map(presentClip),
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      },
      { request_id: request.id },
    );
  });

  app.get(`${BASE}/stats`, { config: { rateLimit: 'metadata', docs: docs.stats } }, async (request) => {
    return successBody(await store.stats(), { request_id: request.id });
  });

  app.get(`${BASE}/pending`, { config: { rateLimit: 'metadata', docs: docs.pending } }, async (request) => {
    const query = parse(schemas.pendingQuery, request.query);
    const page = await store.pending(query);
    const clips = await Promise.all(
      page.clips.map(async (clip) => {
        const staged = await store.hasStagedUpload(clip.id);
        return { ...presentClip(clip), has_staged_upload: staged, next_step: nextStep(clip, staged) };
      }),
    );
    return successBody(
      { clips, next_cursor: page.nextCursor, has_more: page.nextCursor !== null },
      { request_id: request.id },
    );
  });

  app.get<{ Params: IdParams }>(
    `${BASE}/:id`,
    { config: { rateLimit: 'metadata', docs: docs.get } },
    async (request) => {
      const clip = await store.get(request.params.id);
      const staged = clip.source !== 'generated' && (await store.hasStagedUpload(clip.id));
      return successBody(
        { clip: { ...presentClip(clip), has_staged_upload: staged } },
        { request_id: request.id },
      );
    },
  );

  app.patch<{ Params: IdParams }>(`${BASE}/:id`, { config: { docs: docs.patch } }, async (request) => {
    await requireOperator(request);
    const changes = parse(schemas.patch, request.body);
    return successBody(
      { clip: presentClip(await store.patch(request.params.id, changes)) },
      { request_id: request.id },
    );
  });

  app.delete<{ Params: IdParams }>(`${BASE}/:id`, { config: { docs: docs.remove } }, async (request) => {
    await requireOperator(request);
    const removed = await store.remove(request.params.id);
    return successBody({ clip: presentClip(removed), deleted: true }, { request_id: request.id });
  });

  app.post(`${BASE}/presigned-url`, { config: { docs: docs.presignedUrl } }, async (request, reply) => {
    const accountId = await requireOperator(request);
    const body = parse(schemas.presignedUrl, request.body);
    return once(request, reply, 'presigned-url', request.body, async () => {
      let clip: ClipRow;
      let mapping: ReturnType<typeof mapMetadata> | undefined;
      if (body.clip_id !== undefined) {
        clip = await store.getUploadable(body.clip_id);
      } else {
        mapping = mapMetadata(describedClip(body));
        clip = await store.createPending({
          title: mapping.title,
          description: body.description,
          tags: mapping.tags,
          niches: mapping.niches,
          attribution: body.attribution,
          source: 'uploaded',
          createdBy: accountId,
        });
      }
      const maxBytes = body.size_bytes ?? MAX_UPLOAD_BYTES;
      const expiresAt = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
      const token = signUploadToken(await uploadSecret(), { clipId: clip.id, maxBytes, expiresAt });
      return {
        status: mapping ? 201 : 200,
        data: {
          clip: presentClip(clip),
          ...(mapping && { niche_source: mapping.niche_source, niche_reason: mapping.niche_reason }),
          upload: {
            method: 'PUT',
            url: `${ctx.config.publicBaseUrl}${BASE}/uploads/${token}`,
            headers: { 'content-type': body.content_type ?? 'video/mp4' },
            max_bytes: maxBytes,
            expires_at: new Date(expiresAt * 1000).toISOString(),
          },
          confirm: { ...CONFIRM, body: { clip_id: clip.id } },
        },
      };
    });
  });

  app.post(`${BASE}/confirm-upload`, { config: { docs: docs.confirmUpload } }, async (request, reply) => {
    await requireOperator(request);
    const body = parse(schemas.confirmUpload, request.body);
    return once(request, reply, 'confirm-upload', request.body, async () => ({
      status: 200,
      data: { clip: presentClip(await store.confirm(body.clip_id, body.url, ctx.urlGuard)) },
    }));
  });

  app.post(`${BASE}/extlib/import`, { config: { docs: docs.extlibImport } }, async (request, reply) => {
    const accountId = await requireOperator(request);
    const body = parse(schemas.extlibImport, request.body);
    return once(request, reply, 'extlib/import', request.body, async () => {
      const clips = await ctx.db.transaction().execute(async (tx) => {
        const out = [];
        for (const record of body.clips) out.push(await importRecord(record, body.library, accountId, tx));
        return out;
      });
      const created = clips.filter((c) => c.created).length;
      return {
        status: 200,
        data: { library: body.library, created, updated: clips.length - created, clips },
      };
    });
  });

  app.post(`${BASE}/extlib/single`, { config: { docs: docs.extlibSingle } }, async (request, reply) => {
    const accountId = await requireOperator(request);
    const { library, ...record } = parse(schemas.extlibSingle, request.body);
    return once(request, reply, 'extlib/single', request.body, async () => {
      const imported = await importRecord(record, library, accountId);
      return { status: imported.created ? 201 : 200, data: { library, ...imported } };
    });
  });

  app.post(`${BASE}/map-metadata`, { config: { docs: docs.mapMetadata } }, async (request, reply) => {
    const body = parse(schemas.mapMetadata, request.body);
    return once(request, reply, 'map-metadata', request.body, async () => {
      if (!('clips' in body) || !Array.isArray(body.clips)) {
        const record = parse(schemas.mapRecord, body);
        return { status: 200, data: { mapping: mapMetadata({ ...record, title: record.title ?? '' }) } };
      }
      const mappings = body.clips.map((raw, index) => {
        const record = schemas.mapRecord.safeParse(raw);
        if (!record.success)
          return { index, valid: false, issues: fieldIssues(record.error, `clips[${index}].`) };
        return {
          index,
          valid: true,
          mapping: mapMetadata({ ...record.data, title: record.data.title ?? '' }),
        };
      });
      return { status: 200, data: { mappings } };
    });
  });

  app.post<{ Params: IdParams }>(
    `${BASE}/:id/increment-usage`,
    { config: { docs: docs.incrementUsage } },
    async (request, reply) => {
      await requireOperator(request);
      const body = parse(schemas.incrementUsage, request.body ?? {});
      return once(request, reply, 'increment-usage', { id: request.params.id, ...body }, async () => ({
        status: 200,
        data: {
          clip_id: request.params.id,
          usage_count: await store.incrementUsage(request.params.id, body.by),
        },
      }));
    },
  );

  // The routes that take a file as the body. Their parsers hand the handler the request stream itself,
  // which is written to disk chunk by chunk (never buffered) once the caller is known to be allowed.
  void app.register(async (scope) => {
    const passThrough = (
      _request: FastifyRequest,
      payload: unknown,
      done: (err: Error | null, body?: unknown) => void,
    ) => done(null, payload);
    scope.addContentTypeParser(/^video\/[\w.+-]+$/i, passThrough);
    scope.addContentTypeParser('application/octet-stream', passThrough);
    scope.addContentTypeParser('*', (_request, _payload, done) => done(uploadErrors.notRaw()));

    scope.put<{ Params: { token: string } }>(
      `${BASE}/uploads/:token`,
      { config: { auth: false, docs: docs.presignedUpload } },
      async (request, reply) => {
        const check = verifyUploadToken(await uploadSecret(), request.params.token);
        if (!check.ok)
          throw check.reason === 'expired' ? uploadErrors.urlExpired() : uploadErrors.urlInvalid();
        const { clipId, maxBytes } = check.claims;
        await store.getUploadable(clipId);
        const received = await receive(rawBody(request, maxBytes), store.stagedPath(clipId), maxBytes);
        await store.shareStaged(clipId);
        return send(request, reply, {
          status: 200,
          data: {
            clip_id: clipId,
            bytes: received.bytes,
            sha256: received.sha256,
            confirm: { ...CONFIRM, body: { clip_id: clipId } },
          },
        });
      },
    );

    scope.post(`${BASE}/direct-upload`, { config: { docs: docs.directUpload } }, async (request, reply) => {
      const accountId = await requireOperator(request);
      const query = parse(schemas.directUploadQuery, request.query);
      const described = describedClip(query);
      const incoming = store.incomingPath();
      const received = await receive(rawBody(request, MAX_UPLOAD_BYTES), incoming, MAX_UPLOAD_BYTES);
      const fingerprint = { query: request.query, sha256: received.sha256, bytes: received.bytes };
      try {
        return await once(request, reply, 'direct-upload', fingerprint, async () => {
          const facts = await store.inspectOrRefuse(incoming);
          const mapping = mapMetadata(described);
          const pending = await store.createPending({
            title: mapping.title,
            description: query.description,
            tags: mapping.tags,
            niches: mapping.niches,
            attribution: query.attribution,
            source: 'uploaded',
            createdBy: accountId,
          });
          const clip = await store.install(pending.id, incoming, facts);
          return {
            status: 201,
            data: {
              clip: presentClip(clip),
              niche_source: mapping.niche_source,
              niche_reason: mapping.niche_reason,
            },
          };
        });
      } finally {
        // Gone once installed; left over after a replay or a refusal.
        await rm(incoming, { force: true });
      }
    });

    scope.post<{ Params: IdParams }>(
      `${BASE}/:id/upload`,
      { config: { docs: docs.upload } },
      async (request, reply) => {
        await requireOperator(request);
        const clipId = request.params.id;
        await store.getUploadable(clipId);
        const incoming = store.incomingPath();
        const received = await receive(rawBody(request, MAX_UPLOAD_BYTES), incoming, MAX_UPLOAD_BYTES);
        try {
          return await once(
            request,
            reply,
            'upload',
            { clip_id: clipId, sha256: received.sha256, bytes: received.bytes },
            async () => ({
              status: 200,
              data: { clip: presentClip(await store.attach(clipId, incoming)) },
            }),
          );
        } finally {
          await rm(incoming, { force: true });
        }
      },
    );
  });
}
