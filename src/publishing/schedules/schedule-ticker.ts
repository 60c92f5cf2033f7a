// Makes the ticks of due schedules (docs/schedules.md), in every worker process at once: each tick is claimed
// with SELECT … FOR UPDATE SKIP LOCKED in a transaction that submits its job, records the run and advances
// next_run_at, so exactly one process makes it. A process that dies mid-tick rolls the claim back; the tick is
// made again by the next pass, and its Idempotency-Key (schedule:<id>:<tick time>) answers with the job the
// dead process may already have created instead of making a second one.
import type { Logger } from 'pino';
import type { Db, Tx } from '../../platform/db/database.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Answer, GenerationService } from '../../platform/generation/submit.ts';
import { newId } from '../../platform/ids.ts';
import type { ModeRegistry } from '../../platform/modes/mode.ts';
import { planTick } from './recurrence.ts';
import { API_KEY_REVOKED } from './schedule-errors.ts';
import { resolveTarget } from './schedule-input.ts';
import {
  claimDueSchedule,
  insertRun,
  keyIsActive,
  type RunStatus,
  type ScheduleChange,
  type ScheduleRow,
  updateSchedule,
} from './schedule-repo.ts';
import { ENDED_REASON, recurrenceOf } from './schedule-service.ts';

export interface ScheduleTickerDeps {
  db: Db;
  generation: GenerationService;
  registry: ModeRegistry;
  log: Logger;
  /** How often due schedules are looked for (default 5 s: a tick is made at most this late). */
  intervalMs?: number;
}

/** What one tick of one schedule did. */
export interface TickOutcome {
  scheduleId: string;
  tickAt: Date;
  status: RunStatus;
  jobIds: string[];
  errorCode: string | null;
  missed: number;
}

interface SubmitResult {
  status: 'job_created' | 'skipped';
  jobIds: string[];
  priceCents: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

const DEFAULT_INTERVAL_MS = 5000;
/** Ticks one pass makes at most; the next pass goes on with the rest. */
const MAX_TICKS_PER_PASS = 100;

/** The Idempotency-Key of a tick's request: one tick can never make two jobs. */
export function tickIdempotencyKey(scheduleId: string, tickAt: Date): string {
  return `schedule:${scheduleId}:${tickAt.toISOString()}`;
}

function skipped(code: string, message: string): SubmitResult {
  return { status: 'skipped', jobIds: [], priceCents: null, errorCode: code, errorMessage: message };
}

function resultOf(answer: Answer): SubmitResult {
  if (answer.status < 300) {
    const data = answer.body.data as { price_usd_cents?: unknown } | undefined;
    return {
      status: 'job_created',
      jobIds: answer.jobIds,
      priceCents: typeof data?.price_usd_cents === 'number' ? data.price_usd_cents : 0,
      errorCode: null,
      errorMessage: null,
    };
  }
  const error = answer.body.error as { code?: string; message?: string } | undefined;
  return skipped(error?.code ?? `HTTP_${answer.status}`, error?.message ?? '');
}

function missedMessage(count: number, capped: boolean, first: Date, last: Date, ran: Date): string {
  const how = capped ? `${count} or more ticks` : count === 1 ? '1 tick' : `${count} ticks`;
  return `${how} from ${first.toISOString()} to ${last.toISOString()} passed while no worker was running; only the latest due tick (${ran.toISOString()}) ran.`;
}

export class ScheduleTicker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: ScheduleTickerDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.pass(), this.deps.intervalMs ?? DEFAULT_INTERVAL_MS);
    this.timer.unref();
    void this.pass();
  }

  /** Stops looking for ticks and waits for the pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private pass(): Promise<void> {
    this.running ??= this.tick()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'schedule tick pass failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Makes every tick due at `now` that no other process is making, and says what each did. */
  async tick(now: Date = new Date()): Promise<TickOutcome[]> {
    const outcomes: TickOutcome[] = [];
    // Schedules whose tick failed unexpectedly in this pass: rolled back, tried again by the next pass.
    const failed: string[] = [];
    while (outcomes.length + failed.length < MAX_TICKS_PER_PASS) {
      let claimed: string | undefined;
      try {
        const outcome = await this.deps.db.transaction().execute(async (tx) => {
          const row = await claimDueSchedule(tx, now, failed);
          if (!row) return undefined;
          claimed = row.id;
          return this.runTick(tx, row, now);
        });
        if (!outcome) break;
        outcomes.push(outcome);
      } catch (error) {
        if (claimed === undefined) throw error;
        failed.push(claimed);
        this.deps.log.error({ err: error, scheduleId: claimed }, 'schedule tick failed; it will be retried');
      }
    }
    return outcomes;
  }

  private async runTick(tx: Tx, row: ScheduleRow, now: Date): Promise<TickOutcome> {
    const plan = planTick(recurrenceOf(row), { at: row.next_run_at!, cursor: row.cursor }, now);
    const tickAt = plan.run.at;
    if (plan.missed) {
      const { count, countCapped, first, last } = plan.missed;
      await insertRun(tx, {
        scheduleId: row.id,
        tickAt: first,
        status: 'missed',
        errorCode: 'TICKS_MISSED',
        errorMessage: missedMessage(count, countCapped, first, last, tickAt),
        missedCount: count,
        lastMissedAt: last,
      });
    }
    let change: ScheduleChange = plan.next
      ? { nextRunAt: plan.next.at, cursor: plan.next.cursor, lastRunAt: tickAt }
      : {
          status: 'ended',
          statusReason: ENDED_REASON,
          nextRunAt: null,
          cursor: plan.run.cursor,
          lastRunAt: tickAt,
        };
    let result: SubmitResult;
    if (await keyIsActive(tx, row.api_key_id)) {
      result = await this.submit(row, tickAt);
    } else {
      result = skipped(API_KEY_REVOKED.code, API_KEY_REVOKED.message);
      if (plan.next) change = { ...change, status: 'paused', statusReason: API_KEY_REVOKED, nextRunAt: null };
    }
    await insertRun(tx, {
      scheduleId: row.id,
      tickAt,
      status: result.status,
      jobIds: result.jobIds,
      priceCents: result.priceCents,
      errorCode: result.errorCode,
      errorMessage: result.errorMessage,
    });
    await updateSchedule(tx, row.id, change);
    this.deps.log.info(
      { scheduleId: row.id, tickAt, status: result.status, jobIds: result.jobIds, code: result.errorCode },
      'schedule tick',
    );
    return {
      scheduleId: row.id,
      tickAt,
      status: result.status,
      jobIds: result.jobIds,
      errorCode: result.errorCode,
      missed: plan.missed?.count ?? 0,
    };
  }

  /** The tick's request through the normal Generate path, as the schedule's key; a refusal is a skip. */
  private async submit(row: ScheduleRow, tickAt: Date): Promise<SubmitResult> {
    try {
      const target = resolveTarget(this.deps.registry, row.endpoint, row.body);
      const answer = await this.deps.generation.submit({
        caller: { accountId: row.account_id, keyId: row.api_key_id, sandbox: row.sandbox },
        mode: target.mode,
        body: target.body,
        requestId: newId.request(),
        idempotencyKey: tickIdempotencyKey(row.id, tickAt),
        repeatToken: undefined,
        endpoint: target.endpoint,
        ...(target.receiptStatus ? { receiptStatus: target.receiptStatus } : {}),
        // Every tick sends the same body on purpose.
        identicalProtection: false,
      });
      return resultOf(answer);
    } catch (error) {
      // Another process still holds this tick's key (it died mid-request): try again on the next pass.
      if (error instanceof ApiError && error.status < 500 && error.code !== 'REQUEST_IN_PROGRESS')
        return skipped(error.code, error.message);
      throw error;
    }
  }
}
