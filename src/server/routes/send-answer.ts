import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Answer } from '../../platform/generation/submit.ts';

/** Sends a Generate answer; replays carry the replay headers and meta of spec 1 §8 under this request's id. */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer): FastifyReply {
  const body = { ...answer.body };
  const meta = { ...((body.meta as Record<string, unknown>) ?? {}) };
  if (answer.replay) {
    if (meta.request_id && meta.request_id !== request.id) meta.original_request_id = meta.request_id;
    meta.replayed = true;
    meta.replay_reason = answer.replay === 'body' ? 'identical_request' : 'idempotency_key';
    void reply.header('x-idempotent-replay', 'true').header('x-idempotent-replay-match', answer.replay);
  }
  meta.request_id = request.id;
  body.meta = meta;
  return reply.status(answer.status).headers(answer.headers).send(body);
}

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

export function repeatTokenOf(request: FastifyRequest): string | undefined {
  const token = request.headers['x-repeat-token'];
  return typeof token === 'string' && token.length > 0 ? token.slice(0, 128) : undefined;
}
