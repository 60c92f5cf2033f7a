// Schedules (spec 1 §4.11; docs/schedules.md): POST /schedules (free; Idempotency-Key required, by key alone),
// GET /schedules, GET and DELETE /schedules/{schedule_id}, POST /schedules/{schedule_id}/pause and /resume.
// Each tick's job is made by the ScheduleTicker of the worker processes and charged then.
import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import { ScheduleService } from '../../publishing/schedules/schedule-service.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const BASE = '/api/v1/schedules';

interface ScheduleParams {
  schedule_id: string;
}

export function registerScheduleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const schedules = new ScheduleService({
    db: ctx.db,
    generation: ctx.generation,
    registry: ctx.registry,
    idempotency: ctx.idempotency,
    log: ctx.log,
  });

  app.post(BASE, async (request, reply) => {
    const answer = await schedules.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });

  app.get(BASE, { config: { rateLimit: 'metadata' } }, async (request) =>
    successBody(await schedules.list(callerOf(request), request.query), { request_id: request.id }),
  );

  app.get<{ Params: ScheduleParams }>(
    `${BASE}/:schedule_id`,
    { config: { rateLimit: 'metadata' } },
    async (request) =>
      successBody(await schedules.get(callerOf(request), request.params.schedule_id, request.query), {
        request_id: request.id,
      }),
  );

  app.post<{ Params: ScheduleParams }>(`${BASE}/:schedule_id/pause`, async (request) =>
    successBody(await schedules.pause(callerOf(request), request.params.schedule_id), {
      request_id: request.id,
    }),
  );

  app.post<{ Params: ScheduleParams }>(`${BASE}/:schedule_id/resume`, async (request) =>
    successBody(await schedules.resume(callerOf(request), request.params.schedule_id), {
      request_id: request.id,
    }),
  );

  app.delete<{ Params: ScheduleParams }>(`${BASE}/:schedule_id`, async (request) =>
    successBody(await schedules.remove(callerOf(request), request.params.schedule_id), {
      request_id: request.id,
    }),
  );
}
