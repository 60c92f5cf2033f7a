// MEDIA_RETENTION_DAYS: finished jobs' files and work folders are deleted once the job ended that long ago.
// The job record stays (its links then answer 410 MEDIA_EXPIRED). Every worker process runs the timer; the
// database lets exactly one of them sweep per interval.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db, Executor } from '../db/database.ts';
import { FINAL_STATUSES } from '../jobs/job-status.ts';
import { jobWorkDir } from '../jobs/work-dirs.ts';
import type { MediaStore } from '../storage/media-store.ts';

export const RETENTION_RUN = 'media-retention';
/** How often the sweep runs (across all processes together). */
export const RETENTION_INTERVAL_SECONDS = 3600;
/** How often each process asks whether the sweep is due: a process that died mid-interval delays it this long. */
const CHECK_EVERY_MS = 5 * 60 * 1000;
const BATCH = 100;
const DAY_MS = 86_400_000;

/**
 * True in exactly one caller per interval, whichever process asks: the row's lock serializes concurrent claims
 * and each re-reads the time the winner wrote.
 */
export async function claimMaintenanceRun(
  ex: Executor,
  name: string,
  intervalSeconds: number,
): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`
    INSERT INTO maintenance_runs (name, last_run_at) VALUES (${name}, clock_timestamp())
    ON CONFLICT (name) DO UPDATE SET last_run_at = clock_timestamp()
      WHERE maintenance_runs.last_run_at <= clock_timestamp() - make_interval(secs => ${intervalSeconds})
    RETURNING name`.execute(ex);
  return rows.length === 1;
}

export interface SweepResult {
  /** Jobs whose files were deleted. */
  jobs: number;
  /** Other stale work folders deleted: of jobs already swept, gone from the database, or left by crashes. */
  workDirs: number;
}

export class MediaRetention {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      config: Pick<Config, 'dataDir' | 'mediaRetentionDays'>;
      db: Db;
      store: MediaStore;
      log: Logger;
    },
  ) {}

  start(): void {
    if (this.deps.config.mediaRetentionDays === 0) return;
    const tick = () => {
      this.sweeping = this.sweepIfDue().catch((error: unknown) =>
        this.deps.log.error({ err: error }, 'media retention sweep failed'),
      );
    };
    tick();
    this.timer = setInterval(tick, CHECK_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /** Sweeps when no process has in the last interval; undefined when another process's turn it was. */
  async sweepIfDue(now = new Date()): Promise<SweepResult | undefined> {
    if (!(await claimMaintenanceRun(this.deps.db, RETENTION_RUN, RETENTION_INTERVAL_SECONDS)))
      return undefined;
    const result = await this.sweep(now);
    if (result.jobs + result.workDirs > 0)
      this.deps.log.info(result, 'media retention: deleted expired files');
    return result;
  }

  /** Deletes the files of every job that ended more than MEDIA_RETENTION_DAYS before `now`. */
  async sweep(now = new Date()): Promise<SweepResult> {
    const { db, store, config } = this.deps;
    const result: SweepResult = { jobs: 0, workDirs: 0 };
    if (config.mediaRetentionDays === 0) return result;
    const cutoff = new Date(now.getTime() - config.mediaRetentionDays * DAY_MS);
    for (;;) {
      const expired = await db
        .selectFrom('jobs')
        .select('id')
        .where('media_deleted_at', 'is', null)
        .where('finished_at', '<', cutoff)
        .where('status', 'in', [...FINAL_STATUSES])
        .orderBy('finished_at')
        .limit(BATCH)
        .execute();
      for (const { id } of expired) {
        // Files first: a sweep stopped between the two deletes them again next time, never marks kept files gone.
        await store.remove(`jobs/${id}`);
        // Files a request handed to the worker through the store; normally deleted when the job completed.
        await store.remove(`handoff/${id}`);
        await rm(jobWorkDir(config, id), { recursive: true, force: true });
      }
      if (expired.length > 0) {
        await db
          .updateTable('jobs')
          .set({ media_deleted_at: now })
          .where(
            'id',
            'in',
            expired.map((j) => j.id),
          )
          .execute();
      }
      result.jobs += expired.length;
      if (expired.length < BATCH) break;
    }
    result.workDirs = await this.sweepWorkDirs(cutoff);
    return result;
  }

  /** Work folders untouched since the cutoff whose job is no longer open (or no longer exists). */
  private async sweepWorkDirs(cutoff: Date): Promise<number> {
    const root = join(this.deps.config.dataDir, 'work');
    const names = await readdir(root).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const path = join(root, name);
      const info = await stat(path).catch(() => undefined);
      if (!info || info.mtime >= cutoff) continue;
      const open = await this.deps.db
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', name)
        .where('status', 'not in', [...FINAL_STATUSES])
        .executeTakeFirst();
      if (open) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}

/** Whether `key` is a file of a job whose media the retention sweep deleted (its links answer 410). */
export async function isExpiredJobMedia(db: Db, key: string): Promise<boolean> {
  const jobId = /^jobs\/([^/]+)\//.exec(key)?.[1];
  if (!jobId) return false;
  const job = await db
    .selectFrom('jobs')
    .select('media_deleted_at')
    .where('id', '=', jobId)
    .executeTakeFirst();
  return Boolean(job?.media_deleted_at);
}
