// POST /hooks/generate (spec 2 §4.1; docs/signals.md): hooks for a topic, ranked best first. Free, and
// rate-limited per key like the other free reads; an Idempotency-Key replays the first answer for 24 h.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHookWriter } from '../../providers/openai-hook-writer.ts';
import { successBody, type Meta } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';
import { errorAnswer, type Answer } from '../../platform/generation/submit.ts';
import { answerOnce } from '../../platform/idempotency/answer-once.ts';
import { hookRequestSchema, type HookRequest } from '../../signals/hooks/hook-request.ts';
import { HookService } from '../../signals/hooks/hook-service.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const PATH = '/api/v1/hooks/generate';

const DOCS: RouteDocs = {
  summary: 'Generate hooks',
  description:
    'Opening lines for a topic, ranked best first (local generator, or an LLM when configured). Free.',
  tags: ['Signals'],
  body: hookRequestSchema,
  idempotency: 'recommended',
};

function parseHookRequest(body: unknown): HookRequest {
  if (!isPlainObject(body))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const parsed = hookRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}

/** Aborted when the client goes away before its answer is sent: an LLM call for nobody stops. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

export function registerHookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hooks = new HookService(createHookWriter(ctx.config.llm));

  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<Answer> {
    const input = parseHookRequest(request.body);
    const result = await hooks.generate(input, clientGone(reply));
    const meta: Meta = {
      request_id: request.id,
      generator: result.generator,
      ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
    };
    const data = {
      topic: input.topic,
      platform: input.platform,
      key_phrase: result.keyPhrase,
      hooks: result.hooks,
    };
    return { status: 200, body: successBody(data, meta), headers: {}, jobIds: [] };
  }

  app.post(PATH, { config: { rateLimit: 'metadata', docs: DOCS } }, async (request, reply) => {
    const settled = await answerOnce(
      ctx.idempotency,
      {
        accountId: callerOf(request).accountId,
        endpoint: 'hooks/generate',
        key: idempotencyKeyOf(request),
        body: request.body,
      },
      () => answer(request, reply),
      (error) => errorAnswer(error, request.id),
    );
    return sendAnswer(request, reply, settled);
  });
}
