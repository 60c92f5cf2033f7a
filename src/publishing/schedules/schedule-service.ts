// Schedules (docs/schedules.md): create (free; Idempotency-Key required, by key alone), list, read, pause,
// resume and delete. The ticks themselves are made by ScheduleTicker (schedule-ticker.ts).
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../platform/db/database.ts';
import { errorBody, successBody, type Meta } from '../../platform/envelope.ts';
import { ApiError, errors, type FieldIssue } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';
import type { Answer, Caller, GenerationService } from '../../platform/generation/submit.ts';
import { answerOnce } from '../../platform/idempotency/answer-once.ts';
import type { Idempotency } from '../../platform/idempotency/idempotency.ts';
import { validateIdempotencyKey } from '../../platform/idempotency/idempotency.ts';
import type { ModeRegistry } from '../../platform/modes/mode.ts';
import { displayUsd } from '../../platform/pricing/price-table.ts';
import { nextOccurrence, parseRecurrence, type Recurrence, upcomingOccurrences } from './recurrence.ts';
import { scheduleErrors } from './schedule-errors.ts';
import {
  createScheduleSchema,
  getScheduleQuerySchema,
  listSchedulesQuerySchema,
  newScheduleId,
  resolveTarget,
  SCHEDULE_ID_PATTERN,
  type ScheduleTarget,
} from './schedule-input.ts';
import {
  countSchedules,
  deleteSchedule,
  findSchedule,
  insertSchedule,
  keyIsActive,
  listRuns,
  listSchedules,
  lockAccount,
  type RunRow,
  type ScheduleRow,
  updateSchedule,
} from './schedule-repo.ts';

/** Schedules one account may keep (any status); each may make a job a minute. */
export const MAX_SCHEDULES_PER_ACCOUNT = 50;
const UPCOMING_SHOWN = 5;

export interface ScheduleServiceDeps {
  db: Db;
  generation: GenerationService;
  registry: ModeRegistry;
  idempotency: Idempotency;
  log: Logger;
}

export interface CreateCall {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  body: unknown;
}

export const ENDED_REASON = {
  code: 'SCHEDULE_ENDED',
  message: 'The recurrence has no occurrence left (its COUNT or UNTIL was reached).',
};

export function recurrenceOf(row: ScheduleRow): Recurrence {
  return {
    kind: row.recurrence_kind,
    expression: row.expression,
    timeZone: row.time_zone,
    start: row.start_wall,
  };
}

function presentRun(run: RunRow): Record<string, unknown> {
  return {
    tick_at: run.tick_at.toISOString(),
    status: run.status,
    job_id: run.job_ids[0] ?? null,
    ...(run.job_ids.length > 1 ? { job_ids: run.job_ids } : {}),
    price_usd_cents: run.price_cents,
    error: run.error_code ? { code: run.error_code, message: run.error_message } : null,
    ...(run.status === 'missed'
      ? { missed_count: run.missed_count, last_missed_at: run.last_missed_at?.toISOString() ?? null }
      : {}),
    recorded_at: run.recorded_at.toISOString(),
  };
}

export function presentSchedule(
  row: ScheduleRow,
  extras: { upcoming?: Date[]; runs?: RunRow[]; warnings?: string[] } = {},
): Record<string, unknown> {
  return {
    schedule_id: row.id,
    name: row.name,
    status: row.status,
    status_reason: row.status_reason,
    cron: row.recurrence_kind === 'cron' ? row.expression : null,
    rrule: row.recurrence_kind === 'rrule' ? row.expression : null,
    time_zone: row.time_zone,
    start_at: row.start_wall,
    endpoint: row.endpoint,
    body: row.body,
    next_run_at: row.next_run_at?.toISOString() ?? null,
    ...(extras.upcoming ? { upcoming_runs: extras.upcoming.map((d) => d.toISOString()) } : {}),
    last_run_at: row.last_run_at?.toISOString() ?? null,
    price_per_run:
      row.price_cents === null ? null : { usd_cents: row.price_cents, display: displayUsd(row.price_cents) },
    key_mode: row.sandbox ? 'sandbox' : 'live',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(extras.runs ? { runs: extras.runs.map(presentRun) } : {}),
    ...(extras.warnings ? { warnings: extras.warnings } : {}),
  };
}

function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (!isPlainObject(raw))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}

/** The field issues of a 400 INPUT_INVALID, or undefined for any other error. */
function inputIssues(error: unknown): FieldIssue[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'INPUT_INVALID') return undefined;
  const fields = (error.details as { fields?: FieldIssue[] } | undefined)?.fields;
  return fields ?? [{ field: '(body)', message: error.message }];
}

export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  /** POST /schedules: 201 with the schedule; every refusal is free and stored under the key like an answer. */
  async create(call: CreateCall): Promise<Answer> {
    const { caller, requestId } = call;
    validateIdempotencyKey(call.idempotencyKey);
    if (call.idempotencyKey === undefined) throw scheduleErrors.idempotencyKeyRequired();
    const meta: Meta = { request_id: requestId };
    return answerOnce(
      this.deps.idempotency,
      { accountId: caller.accountId, endpoint: 'schedules', key: call.idempotencyKey, body: call.body },
      async (): Promise<Answer> => {
        const schedule = await this.createLive(caller, call.body, requestId);
        return {
          status: 201,
          body: successBody(schedule, meta),
          headers: { location: `/api/v1/schedules/${String(schedule.schedule_id)}` },
          jobIds: [],
        };
      },
      (error): Answer => ({
        status: error.status,
        body: errorBody(error, meta),
        headers: { ...error.headers },
        jobIds: [],
      }),
    );
  }

  private async createLive(
    caller: Caller,
    rawBody: unknown,
    requestId: string,
  ): Promise<Record<string, unknown>> {
    const input = parse(createScheduleSchema, rawBody);
    const now = new Date();
    // Every field is checked before answering, so one 400 names all that is wrong.
    const issues: FieldIssue[] = [];
    let recurrence: Recurrence | undefined;
    try {
      recurrence = parseRecurrence(input, now);
    } catch (error) {
      const found = inputIssues(error);
      if (!found) throw error;
      issues.push(...found);
    }
    let target: ScheduleTarget | undefined;
    try {
      target = resolveTarget(this.deps.registry, input.endpoint, input.body);
    } catch (error) {
      const found = inputIssues(error);
      if (!found) throw error;
      issues.push(...found);
    }
    let check: { priceCents: number | null; warnings: string[] } | undefined;
    if (target) {
      try {
        check = await this.checkBody(caller, target, requestId);
      } catch (error) {
        const found = inputIssues(error);
        if (!found) throw error;
        issues.push(...found);
      }
    }
    if (issues.length > 0 || !recurrence || !target || !check) throw invalidInputError(issues);

    const first = nextOccurrence(recurrence, now, null)!;
    const row = await this.deps.db.transaction().execute(async (tx) => {
      await lockAccount(tx, caller.accountId);
      if ((await countSchedules(tx, caller.accountId)) >= MAX_SCHEDULES_PER_ACCOUNT)
        throw scheduleErrors.limitReached(MAX_SCHEDULES_PER_ACCOUNT);
      return insertSchedule(tx, {
        id: newScheduleId(),
        accountId: caller.accountId,
        apiKeyId: caller.keyId,
        sandbox: caller.sandbox,
        name: input.name ?? null,
        kind: recurrence.kind,
        expression: recurrence.expression,
        timeZone: recurrence.timeZone,
        startWall: recurrence.start,
        endpoint: input.endpoint,
        body: input.body,
        priceCents: check.priceCents,
        nextRunAt: first.at,
        cursor: first.cursor,
      });
    });
    this.deps.log.info(
      { scheduleId: row.id, accountId: caller.accountId, nextRunAt: first.at },
      'schedule created',
    );
    return presentSchedule(row, { upcoming: this.upcoming(row), warnings: check.warnings });
  }

  /**
   * Validates the body exactly as its route would, creating nothing (a dry run); its fields are named under
   * "body.". A refusal that depends on the moment (409: no new channel video yet, a persona still processing)
   * does not block the schedule: it comes back as a warning, and ticks are refused alike while it lasts.
   */
  private async checkBody(
    caller: Caller,
    target: ScheduleTarget,
    requestId: string,
  ): Promise<{ priceCents: number | null; warnings: string[] }> {
    if ('dry_run' in target.body)
      throw errors.inputInvalid('Invalid schedule: body.dry_run is not allowed.', [
        {
          field: 'body.dry_run',
          message:
            'is not allowed: a schedule makes real jobs (to check a body, send it to its endpoint with dry_run: true)',
        },
      ]);
    try {
      const answer = await this.deps.generation.dryRun(
        target.mode,
        { ...target.body, dry_run: true },
        caller,
        requestId,
      );
      const data = answer.body.data as { price: { usd_cents: number }; warnings: string[] };
      // Sandbox keys make free placeholder jobs.
      return { priceCents: caller.sandbox ? 0 : data.price.usd_cents, warnings: data.warnings };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const issues = inputIssues(error);
      if (issues)
        throw errors.inputInvalid(
          `Invalid schedule body: ${issues.map((i) => `body.${i.field} ${i.message}`).join('; ')}.`,
          issues.map((issue) => ({
            ...issue,
            field: issue.field === '(body)' ? 'body' : `body.${issue.field}`,
          })),
        );
      if (error.status === 409)
        return { priceCents: null, warnings: [`body: ${error.code}: ${error.message}`] };
      throw error;
    }
  }

  private upcoming(row: ScheduleRow): Date[] | undefined {
    if (!row.next_run_at) return undefined;
    return upcomingOccurrences(
      recurrenceOf(row),
      new Date(row.next_run_at.getTime() - 1),
      row.cursor,
      UPCOMING_SHOWN,
    ).map((o) => o.at);
  }

  /** GET /schedules: newest first, a page at a time. */
  async list(caller: Caller, rawQuery: unknown): Promise<Record<string, unknown>> {
    const parsed = listSchedulesQuerySchema.safeParse(rawQuery ?? {});
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    const { limit, cursor, status } = parsed.data;
    const rows = await listSchedules(this.deps.db, caller.accountId, {
      limit: limit + 1,
      ...(cursor !== undefined ? { after: cursor } : {}),
      ...(status !== undefined ? { status } : {}),
    });
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return {
      schedules: page.map((row) => presentSchedule(row)),
      next_cursor: more ? page[page.length - 1]!.id : null,
      has_more: more,
    };
  }

  /** GET /schedules/{id}: the schedule, its next runs and its latest runs. */
  async get(caller: Caller, scheduleId: string, rawQuery: unknown): Promise<Record<string, unknown>> {
    const parsed = getScheduleQuerySchema.safeParse(rawQuery ?? {});
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    const row = await this.visible(caller, scheduleId);
    const runs = await listRuns(this.deps.db, row.id, parsed.data.runs_limit);
    return presentSchedule(row, { upcoming: this.upcoming(row), runs });
  }

  /** POST /schedules/{id}/pause: no tick runs until it is resumed (a tick already running finishes first). */
  async pause(caller: Caller, scheduleId: string): Promise<Record<string, unknown>> {
    const row = await this.deps.db.transaction().execute(async (tx) => {
      const found = await this.visible(caller, scheduleId, tx);
      if (found.status === 'ended') throw scheduleErrors.ended(scheduleId);
      if (found.status === 'paused') return found;
      return updateSchedule(tx, found.id, { status: 'paused', statusReason: null, nextRunAt: null });
    });
    return presentSchedule(row, { upcoming: this.upcoming(row) });
  }

  /**
   * POST /schedules/{id}/resume: the next run is the first occurrence after now (missed ones are not made
   * up). A schedule whose key was revoked then submits as the key that resumes it.
   */
  async resume(caller: Caller, scheduleId: string): Promise<Record<string, unknown>> {
    const now = new Date();
    const row = await this.deps.db.transaction().execute(async (tx) => {
      const found = await this.visible(caller, scheduleId, tx);
      if (found.status !== 'paused') return found;
      const next = nextOccurrence(recurrenceOf(found), now, found.cursor);
      if (!next) return updateSchedule(tx, found.id, { status: 'ended', statusReason: ENDED_REASON });
      const rebind = !(await keyIsActive(tx, found.api_key_id));
      return updateSchedule(tx, found.id, {
        status: 'active',
        statusReason: null,
        nextRunAt: next.at,
        cursor: next.cursor,
        ...(rebind ? { apiKeyId: caller.keyId, sandbox: caller.sandbox } : {}),
      });
    });
    if (row.status === 'ended') throw scheduleErrors.ended(scheduleId);
    return presentSchedule(row, { upcoming: this.upcoming(row) });
  }

  /** DELETE /schedules/{id}: the schedule and its run history; jobs it made are kept. */
  async remove(caller: Caller, scheduleId: string): Promise<Record<string, unknown>> {
    const deleted =
      SCHEDULE_ID_PATTERN.test(scheduleId) &&
      (await deleteSchedule(this.deps.db, caller.accountId, scheduleId));
    if (!deleted) throw scheduleErrors.notFound(scheduleId);
    return { schedule_id: scheduleId, deleted: true };
  }

  /** The account's schedule (locked when read in a transaction); another account's or unknown: 404. */
  private async visible(caller: Caller, scheduleId: string, tx?: Db): Promise<ScheduleRow> {
    const row = SCHEDULE_ID_PATTERN.test(scheduleId)
      ? await findSchedule(tx ?? this.deps.db, caller.accountId, scheduleId, { lock: tx !== undefined })
      : undefined;
    if (!row) throw scheduleErrors.notFound(scheduleId);
    return row;
  }
}
