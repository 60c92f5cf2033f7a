// Saved brand kits (spec 2 §4.3; docs/brand.md): create, list, read, update, delete. All free.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { createKitSchema, listKitsQuerySchema, updateKitSchema } from '../../brand/kits/kit-input.ts';
import { errorBody, successBody, type Meta } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';
import type { Answer, Caller } from '../../platform/generation/submit.ts';
import { answerOnce } from '../../platform/idempotency/answer-once.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const BASE = '/api/v1/b2b/brands';

const KIT_BUILD_ERRORS = [
  'BRAND_CONFIRMATION_REQUIRED',
  'BRAND_AUTOGEN_FAILED',
  'LOGO_TOO_SMALL',
  'LOGO_UNREADABLE',
];

const DOCS = {
  create: {
    summary: 'Create a brand kit',
    description:
      'A saved brand kit with a normalized logo, made by hand or built from website_url (a well-known brand domain needs confirm_authorized). 201 created, 200 when an existing kit of that website is reused.',
    tags: ['Brand kits'],
    body: createKitSchema,
    successStatus: 201,
    otherStatuses: { 200: 'An existing kit of this website was reused (or a sandbox key).' },
    idempotency: 'recommended',
    errors: KIT_BUILD_ERRORS,
  },
  list: { summary: 'List brand kits', tags: ['Brand kits'], query: listKitsQuerySchema },
  get: { summary: 'Read a brand kit', tags: ['Brand kits'], errors: ['BRAND_NOT_FOUND'] },
  patch: {
    summary: 'Update a brand kit',
    tags: ['Brand kits'],
    body: updateKitSchema,
    idempotency: 'recommended',
    errors: ['BRAND_NOT_FOUND', ...KIT_BUILD_ERRORS],
  },
  remove: { summary: 'Delete a brand kit', tags: ['Brand kits'], errors: ['BRAND_NOT_FOUND'] },
} satisfies Record<string, RouteDocs>;

interface BrandParams {
  brand_id: string;
}

interface Outcome {
  status: number;
  data: unknown;
}

function meta(request: FastifyRequest, caller: Caller): Meta {
  return { request_id: request.id, key_mode: caller.sandbox ? 'sandbox' : 'live' };
}

/** Aborted when the client goes away before its answer is sent: a crawl for nobody stops. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

export function registerBrandKitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const kits = ctx.brandKits;

  function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
    if (!isPlainObject(raw))
      throw errors.inputInvalid('The request body must be a JSON object.', [
        { field: '(body)', message: 'must be a JSON object' },
      ]);
    const parsed = ctx.urlGuard.validating(() => schema.safeParse(raw));
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    return parsed.data;
  }

  /**
   * Runs a write once per Idempotency-Key (recommended on POST): the same key and body answer the stored answer,
   * errors included; server errors are not stored, so the key can be retried.
   */
  async function once(
    request: FastifyRequest,
    reply: FastifyReply,
    endpoint: string,
    run: () => Promise<Outcome>,
  ): Promise<FastifyReply> {
    const caller = callerOf(request);
    const answer = await answerOnce(
      ctx.idempotency,
      { accountId: caller.accountId, endpoint, key: idempotencyKeyOf(request), body: request.body },
      async (): Promise<Answer> => {
        const outcome = await run();
        return {
          status: outcome.status,
          body: successBody(outcome.data, meta(request, caller)),
          headers: {},
          jobIds: [],
        };
      },
      (error): Answer => ({
        status: error.status,
        body: errorBody(error, meta(request, caller)),
        headers: { ...error.headers },
        jobIds: [],
      }),
    );
    return sendAnswer(request, reply, answer);
  }

  app.post(BASE, { config: { docs: DOCS.create } }, async (request, reply) => {
    const caller = callerOf(request);
    const input = parseBody(createKitSchema, request.body);
    const signal = clientGone(reply);
    return once(request, reply, 'b2b/brands', async () => {
      const { kit, status } = await kits.create(caller, input, signal);
      return { status, data: kit };
    });
  });

  app.get(BASE, { config: { rateLimit: 'metadata', docs: DOCS.list } }, async (request) => {
    const caller = callerOf(request);
    const query = listKitsQuerySchema.safeParse(request.query);
    if (!query.success) throw invalidInputError(fieldIssues(query.error));
    return successBody(await kits.list(caller, query.data), meta(request, caller));
  });

  app.get<{ Params: BrandParams }>(
    `${BASE}/:brand_id`,
    { config: { rateLimit: 'metadata', docs: DOCS.get } },
    async (request) => {
      const caller = callerOf(request);
      return successBody(await kits.read(caller, request.params.brand_id), meta(request, caller));
    },
  );

  app.patch<{ Params: BrandParams }>(
    `${BASE}/:brand_id`,
    { config: { docs: DOCS.patch } },
    async (request, reply) => {
      const caller = callerOf(request);
      const patch = parseBody(updateKitSchema, request.body);
      const signal = clientGone(reply);
      const { brand_id: brandId } = request.params;
      return once(request, reply, `b2b/brands/${brandId}:patch`, async () => ({
        status: 200,
        data: await kits.update(caller, brandId, patch, signal),
      }));
    },
  );

  app.delete<{ Params: BrandParams }>(
    `${BASE}/:brand_id`,
    { config: { docs: DOCS.remove } },
    async (request) => {
      const caller = callerOf(request);
      const kit = await kits.remove(caller, request.params.brand_id);
      return successBody({ brand_id: kit.brand_id, deleted: true }, meta(request, caller));
    },
  );
}
