// Request bodies and queries of /schedules (docs/schedules.md), and the generation request a schedule makes.
import { z } from 'zod';
import { ApiError, errors, type FieldIssue } from '../../platform/errors.ts';
import { modeForJobsBody } from '../../platform/generation/jobs-body.ts';
import { isPlainObject } from '../../platform/generation/parse-request.ts';
import type { ModeDefinition, ModeRegistry } from '../../platform/modes/mode.ts';
import { randomToken } from '../../platform/ids.ts';

export const SCHEDULE_ID_PATTERN = /^sch_[0-9A-Za-z]{20}$/;
export const newScheduleId = () => `sch_${randomToken(20)}`;

/** The Generate endpoints (spec 1 §4.1) whose bodies a schedule may submit; a server offers those it serves. */
const SCHEDULABLE_ENDPOINTS = [
  'generate-and-post',
  'jobs',
  'blog-to-video',
  'videos/magic',
  'videos/motivational',
  'videos/news',
  'videos/text-to-video',
  'videos/image-to-video',
  'videos/ai-influencer',
  'clipper/vidsite',
];

const NAME_MAX = 100;

export const createScheduleSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, `must be 1-${NAME_MAX} characters`)
    .max(NAME_MAX, `must be 1-${NAME_MAX} characters`)
    .optional(),
  cron: z.string().max(200, 'must be at most 200 characters').optional(),
  rrule: z.string().max(2000, 'must be at most 2000 characters').optional(),
  start_at: z.string().max(64, 'must be an ISO 8601 date-time').optional(),
  time_zone: z.string().min(1).max(64, 'must be an IANA time zone').default('UTC'),
  endpoint: z
    .string()
    .min(1)
    .max(200)
    .transform((e) => e.replace(/^\/+/, '').replace(/^api\/v1\//, '')),
  body: z.record(z.string(), z.unknown(), { message: 'must be the JSON object the endpoint accepts' }),
});
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;

const limit = z.coerce
  .number({ message: 'must be a whole number from 1 to 100' })
  .int('must be a whole number from 1 to 100')
  .min(1, 'must be a whole number from 1 to 100')
  .max(100, 'must be a whole number from 1 to 100');

export const listSchedulesQuerySchema = z.strictObject({
  limit: limit.default(20),
  cursor: z.string().regex(SCHEDULE_ID_PATTERN, 'must be the next_cursor of an earlier page').optional(),
  status: z.enum(['active', 'paused', 'ended']).optional(),
});

export const getScheduleQuerySchema = z.strictObject({
  runs_limit: limit.default(20),
});

/** What a schedule submits at each tick: a mode, the route it stands for, and the body that route takes. */
export interface ScheduleTarget {
  mode: ModeDefinition;
  /** The route (scope of idempotency keys): the mode's endpoint, or "jobs". */
  endpoint: string;
  body: Record<string, unknown>;
  receiptStatus?: 201;
}

/** The schedulable endpoints this server serves. */
export function servedScheduleEndpoints(registry: ModeRegistry): string[] {
  return SCHEDULABLE_ENDPOINTS.filter((endpoint) =>
    endpoint === 'jobs' ? registry.all().length > 0 : registry.forEndpoint(endpoint) !== undefined,
  );
}

/** Resolves a schedule's endpoint and body to the mode that serves them, as the endpoint's route does. */
export function resolveTarget(registry: ModeRegistry, endpoint: string, body: unknown): ScheduleTarget {
  const served = servedScheduleEndpoints(registry);
  if (!served.includes(endpoint))
    throw errors.inputInvalid(`Invalid schedule: endpoint must be one of: ${served.join(', ')}.`, [
      { field: 'endpoint', message: `must be one of: ${served.join(', ')}`, valid_values: served },
    ]);
  const copy = isPlainObject(body) ? { ...body } : {};
  if (endpoint !== 'jobs') return { mode: registry.forEndpoint(endpoint)!, endpoint, body: copy };
  try {
    const { mode, body: jobBody } = modeForJobsBody(registry, copy);
    return { mode, endpoint: 'jobs', body: jobBody as Record<string, unknown>, receiptStatus: 201 };
  } catch (error) {
    const fields = (error as ApiError).details as { fields?: FieldIssue[] } | undefined;
    if (!(error instanceof ApiError) || !fields?.fields) throw error;
    // The body's own fields are named under `body.` here, as every other refusal of the saved body is.
    const issues = fields.fields.map((i) => ({ ...i, field: `body.${i.field}` }));
    throw errors.inputInvalid(
      `Invalid schedule: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}.`,
      issues,
    );
  }
}
