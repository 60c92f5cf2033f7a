import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';
import { errors, type JobError } from '../errors.ts';
import { refundJob } from '../ledger/ledger.ts';
import type { ModeRegistry } from '../modes/mode.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { queueWebhook } from '../webhooks/webhook-events.ts';
import type { StoredArtifacts } from './job-presenter.ts';
import { findAccountJob, transitionJob } from './jobs-repo.ts';
import type { JobStatus } from './job-status.ts';
import type { JobQueue } from './queue.ts';

export const JOB_STOP_CHANNEL = 'reelsmith_job_stop';

/**
 * Ends jobs. Each ending is one transaction: the status change, the refund it owes (at most once per job
 * and reason, enforced by the ledger), the progress event and the queued webhook.
 */
export class JobLifecycle {
  constructor(
    private readonly deps: {
      db: Db;
      queue: JobQueue;
      store: MediaStore;
      registry: ModeRegistry;
      log: Logger;
    },
  ) {}

  private events(job: JobRow) {
    return this.deps.registry.get(job.mode)?.webhookEvents;
  }

  async complete(
    jobId: string,
    artifacts: StoredArtifacts,
    refund?: { cents: number; reason: string },
  ): Promise<JobRow | undefined> {
    return this.deps.db.transaction().execute(async (tx) => {
      const job = await transitionJob(
        tx,
        jobId,
        'completed',
        { artifacts, finished_at: new Date() },
        { stage: 'completed', message: 'Finished; read the artifacts.', percent: 100 },
      );
      if (!job) return undefined;
      if (refund && refund.cents > 0 && !job.sandbox)
        await refundJob(tx, job.account_id, job.id, refund.reason, refund.cents);
      await queueWebhook(tx, this.deps.queue, this.deps.store, job, this.events(job));
      return job;
    });
  }

  async fail(
    jobId: string,
    error: JobError,
    status: Extract<JobStatus, 'failed' | 'dead_lettered'> = 'failed',
  ): Promise<JobRow | undefined> {
    return this.deps.db.transaction().execute(async (tx) => {
      const job = await transitionJob(
        tx,
        jobId,
        status,
        { error: error, finished_at: new Date() },
        { stage: status, message: `${error.code}: ${error.message}`, percent: 100 },
      );
      if (!job) return undefined;
      if (!job.sandbox) await refundJob(tx, job.account_id, job.id, 'job_failed');
      await queueWebhook(tx, this.deps.queue, this.deps.store, job, this.events(job));
      // Whichever process still runs an attempt of this job stops it.
      await sql`SELECT pg_notify(${JOB_STOP_CHANNEL}, ${jobId})`.execute(tx);
      this.deps.log.warn({ jobId, code: error.code, status }, 'job ended without a video');
      return job;
    });
  }

  /** Cancels a job of this account if its status is one of `allowed`; 404 for unknown or foreign jobs. */
  async cancel(accountId: string, jobId: string, allowed: readonly JobStatus[]): Promise<JobRow> {
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await findAccountJob(tx, accountId, jobId);
      if (!current) throw errors.jobNotFound(jobId);
      if (!allowed.includes(current.status as JobStatus)) throw errors.cancelNotAllowed(current.status);
      const job = await tx
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', jobId)
        .forNoKeyUpdate()
        .executeTakeFirstOrThrow();
      if (!allowed.includes(job.status as JobStatus)) throw errors.cancelNotAllowed(job.status);
      const cancelled = await transitionJob(
        tx,
        jobId,
        'cancelled',
        {
          finished_at: new Date(),
          error: {
            code: 'CANCELLED',
            category: 'cancelled',
            message: 'Cancelled by the caller.',
            retryable: false,
          },
        },
        { stage: 'cancelled', message: 'Cancelled by the caller; the charge was refunded.', percent: 100 },
      );
      if (!cancelled) throw errors.cancelNotAllowed(job.status);
      if (!cancelled.sandbox) await refundJob(tx, accountId, jobId, 'job_cancelled');
      await queueWebhook(tx, this.deps.queue, this.deps.store, cancelled, this.events(cancelled));
      await sql`SELECT pg_notify(${JOB_STOP_CHANNEL}, ${jobId})`.execute(tx);
      return cancelled;
    });
  }
}
