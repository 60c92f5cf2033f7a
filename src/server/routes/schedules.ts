// Schedules (spec 1 §4.11; docs/schedules.md): POST /schedules (free; Idempotency-Key required, by key alone),
// GET /schedules, GET and DELETE /schedules/{schedule_id}, POST /schedules/{schedule_id}/pause and /resume.
// Each tick's job is made by the ScheduleTicker of the worker processes and charged then.
import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import {
  createScheduleSchema,
  getScheduleQuerySchema,
  listSchedulesQuerySchema,
} from '../../publishing/schedules/schedule-input.ts';
import { ScheduleService } from '../../publishing/schedules/schedule-service.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const BASE = '/api/v1/schedules';

const DOCS = {
  create: {
    summary: 'Create a schedule',
    description:
      'A recurring job: any Generate (or POST /jobs) body, on a cron expression or an RRULE in a time zone, made exactly once per tick; each job is charged when made.',
    tags: ['Schedules'],
    body: createScheduleSchema,
    successStatus: 201,
    idempotency: 'required',
    errors: ['SCHEDULE_LIMIT_REACHED'],
  },
  list: { summary: 'List schedules', tags: ['Schedules'], query: listSchedulesQuerySchema },
  get: {
    summary: 'Read a schedule',
    description: 'The schedule, its next runs and its recent runs with their jobs.',
    tags: ['Schedules'],
    query: getScheduleQuerySchema,
    errors: ['SCHEDULE_NOT_FOUND'],
  },
  pause: {
    summary: 'Pause a schedule',
    tags: ['Schedules'],
    errors: ['SCHEDULE_NOT_FOUND', 'SCHEDULE_ENDED'],
  },
  resume: {
    summary: 'Resume a schedule',
    tags: ['Schedules'],
    errors: ['SCHEDULE_NOT_FOUND', 'SCHEDULE_ENDED'],
  },
  remove: { summary: 'Delete a schedule', tags: ['Schedules'], errors: ['SCHEDULE_NOT_FOUND'] },
} satisfies Record<string, RouteDocs>;

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

  app.post(BASE, { config: { docs: DOCS.create } }, async (request, reply) => {
    const answer = await schedules.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });

  app.get(BASE, { config: { rateLimit: 'metadata', docs: DOCS.list } }, async (request) =>
    successBody(await schedules.list(callerOf(request), request.query), { request_id: request.id }),
  );

  app.get<{ Params: ScheduleParams }>(
    `${BASE}/:schedule_id`,
    { config: { rateLimit: 'metadata', docs: DOCS.get } },
    async (request) =>
      successBody(await schedules.get(callerOf(request), request.params.schedule_id, request.query), {
        request_id: request.id,
      }),
  );

  app.post<{ Params: ScheduleParams }>(
    `${BASE}/:schedule_id/pause`,
    { config: { docs: DOCS.pause } },
    async (request) =>
      successBody(await schedules.pause(callerOf(request), request.params.schedule_id), {
        request_id: request.id,
      }),
  );

  app.post<{ Params: ScheduleParams }>(
    `${BASE}/:schedule_id/resume`,
    { config: { docs: DOCS.resume } },
    async (request) =>
      successBody(await schedules.resume(callerOf(request), request.params.schedule_id), {
        request_id: request.id,
      }),
  );

  app.delete<{ Params: ScheduleParams }>(
    `${BASE}/:schedule_id`,
    { config: { docs: DOCS.remove } },
    async (request) =>
      successBody(await schedules.remove(callerOf(request), request.params.schedule_id), {
        request_id: request.id,
      }),
  );
}
