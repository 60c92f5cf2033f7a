import { mkdir, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Notifications } from '../db/notifications.ts';
import { JobFailure, type JobError } from '../errors.ts';
import { isDiskFull, type DiskGuard } from '../health/disk-space.ts';
import type { JobContext, ModeRegistry, PipelineServices } from '../modes/mode.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { dropHandoff, receiveWorkFolder } from '../storage/work-handoff.ts';
import { JOB_STOP_CHANNEL, type JobLifecycle } from './job-lifecycle.ts';
import type { StoredFile } from './job-presenter.ts';
import { isFinal, type JobStatus } from './job-status.ts';
import {
  addJobEvent,
  countRenderingHeavyJobs,
  findExpiredLeases,
  findJob,
  findOverdueJobs,
  renewLeases,
  transitionJob,
} from './jobs-repo.ts';
import { QUEUES, type GenerationMessage, type JobQueue } from './queue.ts';
import type { RenderActivity } from './render-activity.ts';
import { jobWorkDir } from './work-dirs.ts';

export interface WorkerDeps {
  config: Config;
  db: Db;
  queue: JobQueue;
  registry: ModeRegistry;
  store: MediaStore;
  lifecycle: JobLifecycle;
  notifications: Notifications;
  urlGuard: UrlGuard;
  log: Logger;
  /** Told when a job starts and ends rendering, so background work can step aside. */
  renders?: RenderActivity;
  /** Heavy jobs wait while it reports too little free disk (MIN_FREE_DISK_MB). */
  disk?: DiskGuard;
}

type AbortReason = 'cancelled' | 'timeout' | 'shutdown';

const PROCESS_TIMEOUT: JobError = {
  code: 'PROCESS_TIMEOUT',
  category: 'timeout',
  message: 'The job exceeded its maximum lifetime and was stopped; the charge was refunded.',
  retryable: true,
};

/** How long a heavy job waits before looking again for a free render slot of its account. */
const RENDER_SLOT_RETRY_SECONDS = 5;
/** How long a heavy job waits before looking again for free disk space. */
const DISK_RETRY_SECONDS = 15;

const DISK_FULL: JobError = {
  code: 'DISK_FULL',
  category: 'internal',
  message:
    'The server ran out of disk space while rendering; nothing was delivered and the charge was refunded. Retry later.',
  retryable: true,
};

function asJobError(error: unknown): JobError {
  if (error instanceof JobFailure) return error.jobError;
  return {
    code: 'RENDER_FAILED',
    category: 'internal',
    message: 'The render failed unexpectedly; it will be retried automatically.',
    retryable: true,
  };
}

/** Takes generation jobs from the queue and runs their mode's pipeline, reporting progress and ending them. */
export class GenerationWorker {
  private readonly active = new Map<string, AbortController>();
  private readonly running = new Set<Promise<unknown>>();
  private reaper: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;
  private accepting = false;

  constructor(private readonly deps: WorkerDeps) {}

  async start(): Promise<void> {
    const { queue, config, notifications } = this.deps;
    this.accepting = true;
    // A job cancelled by its caller, or ended elsewhere (timed out by another process), stops here too.
    this.unlisten = notifications.on(JOB_STOP_CHANNEL, (jobId) => this.active.get(jobId)?.abort('cancelled'));
    const options = {
      batchSize: 1,
      includeMetadata: true,
      pollingIntervalSeconds: config.jobs.pollSeconds,
    } as const;
    for (let i = 0; i < config.workerConcurrency; i++) {
      await queue.boss.work<GenerationMessage>(QUEUES.generation, options, ([message]) =>
        this.track(this.handle(message!)),
      );
    }
    await queue.boss.work<GenerationMessage>(QUEUES.generationDead, options, ([message]) =>
      this.track(this.handleDeadLetter(message!)),
    );
    this.reaper = setInterval(() => void this.sweep(), config.jobs.maintenanceSeconds * 1000);
    this.reaper.unref();
    this.heartbeat = setInterval(
      () => void renewLeases(this.deps.db, [...this.active.keys()], config.jobs.leaseSeconds).catch(() => {}),
      Math.max(500, (config.jobs.leaseSeconds * 1000) / 3),
    );
    this.heartbeat.unref();
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    return promise.finally(() => this.running.delete(promise));
  }

  /** Stops taking jobs, lets running ones finish for up to `graceMs`, then hands the rest back to the queue. */
  async stop(graceMs = 30_000): Promise<void> {
    this.accepting = false;
    if (this.reaper) clearInterval(this.reaper);
    this.unlisten?.();
    await this.deps.queue.boss.offWork(QUEUES.generation);
    await this.deps.queue.boss.offWork(QUEUES.generationDead);
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) await sleep(100);
    for (const controller of this.active.values()) controller.abort('shutdown');
    await Promise.allSettled([...this.running]);
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  private services(accountId: string): PipelineServices {
    const { config, db, urlGuard, store } = this.deps;
    return {
      config,
      db,
      urlGuard,
      store,
      accountBrand: async () => {
        const row = await db
          .selectFrom('accounts')
          .select('brand')
          .where('id', '=', accountId)
          .executeTakeFirst();
        return (row?.brand as Record<string, unknown> | null) ?? null;
      },
    };
  }

  /**
   * Leases the job unless its account already has its maximum of heavy renders running. A job another worker
   * holds with a live lease is left alone (a redelivered queue message must not start a second render).
   */
  private async lease(
    jobId: string,
    diskRoom: boolean,
  ): Promise<'leased' | 'busy' | 'no_disk' | 'gone' | 'overdue'> {
    const { db, config } = this.deps;
    return db.transaction().execute(async (tx) => {
      const job = await tx
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!job || isFinal(job.status as JobStatus)) return 'gone';
      const now = Date.now();
      if (job.status !== 'queued' && job.lease_expires_at && new Date(job.lease_expires_at).getTime() > now)
        return 'gone';
      if (new Date(job.deadline_at).getTime() <= now) return 'overdue';
      if (job.heavy && job.status === 'queued' && !diskRoom) {
        const last = await tx
          .selectFrom('job_events')
          .select('stage')
          .where('job_id', '=', jobId)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (last?.stage !== 'waiting_for_disk')
          await addJobEvent(tx, jobId, {
            status: 'queued',
            stage: 'waiting_for_disk',
            message: 'Waiting for free disk space on the render servers (see GET /api/v1/ready).',
            percent: 0,
          });
        return 'no_disk';
      }
      if (job.heavy && job.status === 'queued') {
        // Serializes the slot check per account across every worker process.
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`render-slots:${job.account_id}`}))`.execute(tx);
        if ((await countRenderingHeavyJobs(tx, job.account_id)) >= config.limits.heavyRendersPerAccount)
          return 'busy';
      }
      const leased = await transitionJob(
        tx,
        jobId,
        'leased',
        {
          attemptsIncrement: true,
          started_at: job.started_at ?? new Date(),
          lease_expires_at: new Date(now + config.jobs.leaseSeconds * 1000),
        },
        { stage: 'leased', message: `Picked up by a worker (attempt ${job.attempts + 1}).`, percent: 0 },
      );
      return leased ? 'leased' : 'gone';
    });
  }

  private async handle(message: PgBoss.JobWithMetadata<GenerationMessage>): Promise<void> {
    const { db, registry, queue, lifecycle, config, store } = this.deps;
    const { jobId } = message.data;
    const log = this.deps.log.child({ jobId });
    if (!this.accepting) throw new Error('worker is shutting down');

    const diskRoom = (await this.deps.disk?.hasRoom()) ?? true;
    const leaseOutcome = await this.lease(jobId, diskRoom);
    if (leaseOutcome === 'gone') return;
    if (leaseOutcome === 'overdue') {
      await lifecycle.fail(jobId, PROCESS_TIMEOUT);
      return;
    }
    if (leaseOutcome === 'busy') {
      await queue.enqueueGeneration(db, jobId, RENDER_SLOT_RETRY_SECONDS);
      return;
    }
    if (leaseOutcome === 'no_disk') {
      log.warn('too little free disk to start a heavy job; it waits');
      await queue.enqueueGeneration(db, jobId, DISK_RETRY_SECONDS);
      return;
    }
    const job = (await findJob(db, jobId))!;
    const mode = registry.get(job.mode);
    if (!mode) {
      await lifecycle.fail(jobId, {
        code: 'MODE_NOT_AVAILABLE',
        category: 'internal',
        message: `No worker serves the ${job.mode} mode.`,
        retryable: false,
      });
      return;
    }

    const controller = new AbortController();
    this.active.set(jobId, controller);
    const rendered = await this.deps.renders?.begin(jobId, new Date(job.deadline_at));
    const msLeft = new Date(job.deadline_at).getTime() - Date.now();
    const deadline = setTimeout(() => controller.abort('timeout'), Math.max(0, msLeft));
    const workDir = jobWorkDir(config, jobId);
    // Kept when the attempt will be retried: finished stages are recovery points for the next attempt.
    let keepWorkDir = false;
    try {
      await mkdir(workDir, { recursive: true });
      await receiveWorkFolder(store, jobId, workDir, controller.signal);
      await transitionJob(db, jobId, 'running', {}, { stage: 'running', message: 'Generating.', percent: 1 });
      const context: JobContext<unknown> = {
        job: {
          id: jobId,
          accountId: job.account_id,
          videoId: job.video_id,
          attempt: job.attempts,
          deadlineAt: new Date(job.deadline_at),
        },
        request: job.request,
        workDir,
        signal: controller.signal,
        log,
        services: this.services(job.account_id),
        progress: async (stage, percent, text) => {
          if (controller.signal.aborted) return;
          await addJobEvent(db, jobId, {
            status: 'running',
            stage,
            message: text,
            percent: Math.max(0, Math.min(99, percent)),
          });
        },
      };
      const output = await mode.run(context);
      controller.signal.throwIfAborted();

      const uploading = await transitionJob(
        db,
        jobId,
        'uploading',
        {},
        { stage: 'uploading', message: 'Storing the files.', percent: 97 },
      );
      // The job ended meanwhile (cancelled, timed out, or taken over after a lost lease): its result is dropped.
      if (!uploading) return;
      const files: StoredFile[] = [];
      for (const [i, file] of output.files.entries()) {
        const name =
          file.name ??
          `${file.role}${file.index !== undefined ? `-${file.index + 1}` : ''}-${i}${extensionOf(file.path)}`;
        const key = `jobs/${jobId}/${name}`;
        await store.put(key, file.path, { move: true });
        files.push({
          role: file.role,
          key,
          contentType: file.contentType,
          ...(file.index !== undefined ? { index: file.index } : {}),
          ...(file.name ? { name: file.name } : {}),
        });
      }
      const refund = output.refundCents
        ? { cents: output.refundCents, reason: output.refundReason ?? 'undelivered_items' }
        : undefined;
      await lifecycle.complete(jobId, { ...output.artifacts, files }, refund);
      await dropHandoff(store, jobId).catch((error: unknown) =>
        log.warn({ err: error }, 'the files handed to the worker were not deleted from the store'),
      );
      log.info({ files: files.length }, 'job completed');
    } catch (error) {
      keepWorkDir = true;
      await this.onFailure(
        message,
        jobId,
        controller.signal.aborted ? (controller.signal.reason as AbortReason) : undefined,
        error,
        log,
      );
      keepWorkDir = false;
    } finally {
      clearTimeout(deadline);
      this.active.delete(jobId);
      await rendered?.();
      if (!keepWorkDir) await rm(workDir, { recursive: true, force: true }).catch(() => {});
    }
  }

  private async onFailure(
    message: PgBoss.JobWithMetadata<GenerationMessage>,
    jobId: string,
    abortReason: AbortReason | undefined,
    error: unknown,
    log: Logger,
  ): Promise<void> {
    const { lifecycle, db } = this.deps;
    if (abortReason === 'cancelled') {
      log.info('job cancelled while running');
      return;
    }
    if (abortReason === 'timeout') {
      await lifecycle.fail(jobId, PROCESS_TIMEOUT);
      return;
    }
    if (abortReason === 'shutdown') {
      // Not the job's fault: hand it back without spending one of its retries.
      await transitionJob(
        db,
        jobId,
        'queued',
        {},
        { stage: 'requeued', message: 'The worker shut down; the job was requeued.', percent: 0 },
      );
      await this.deps.queue.enqueueGeneration(db, jobId);
      return;
    }
    if (isDiskFull(error)) {
      // Fails at once (a retry here would meet the same full disk) and leaves nothing half-written. The work
      // folder and any file already stored are deleted before the job reads as failed, so the space is back
      // when the caller learns of the failure (and may retry at once).
      log.error({ err: error }, 'the disk filled up during the job');
      await rm(jobWorkDir(this.deps.config, jobId), { recursive: true, force: true }).catch(() => {});
      await this.deps.store.remove(`jobs/${jobId}`);
      await lifecycle.fail(jobId, DISK_FULL);
      return;
    }
    const jobError = asJobError(error);
    if (!jobError.retryable) {
      await lifecycle.fail(jobId, jobError);
      return;
    }
    if (!(error instanceof JobFailure)) log.error({ err: error }, 'job attempt crashed');
    const willRetry = message.retryCount < message.retryLimit;
    await transitionJob(
      db,
      jobId,
      'queued',
      { error: jobError },
      {
        stage: willRetry ? 'retrying' : 'retries_exhausted',
        message: willRetry
          ? `Attempt failed (${jobError.code}); it will be retried.`
          : `Attempt failed (${jobError.code}); no retries left.`,
        percent: 0,
      },
    );
    // Failing the queue message hands the retry (or the dead letter) to pg-boss.
    throw error instanceof Error ? error : new Error(String(error));
  }

  private async handleDeadLetter(message: PgBoss.JobWithMetadata<GenerationMessage>): Promise<void> {
    const job = await findJob(this.deps.db, message.data.jobId);
    if (!job || isFinal(job.status as JobStatus)) return;
    const last = job.error as JobError | null;
    await this.deps.lifecycle.fail(
      job.id,
      {
        code: last?.code ?? 'RETRIES_EXHAUSTED',
        category: last?.category ?? 'internal',
        message: `Failed after all automatic retries${last ? `: ${last.message}` : '.'} The charge was refunded.`,
        retryable: true,
      },
      'dead_lettered',
    );
    // The last attempt kept its work folder for a retry that will not come; a half-stored upload goes too.
    await rm(jobWorkDir(this.deps.config, job.id), { recursive: true, force: true });
    await this.deps.store.remove(`jobs/${job.id}`);
  }

  /** Periodic upkeep shared by every worker process: overdue jobs and attempts of dead workers. */
  async sweep(): Promise<void> {
    try {
      await this.reapOverdueJobs();
      await this.recoverExpiredLeases();
    } catch (error) {
      this.deps.log.error({ err: error }, 'job sweep failed');
    }
  }

  /** Ends jobs past their maximum lifetime wherever they are (queued, stuck or running elsewhere). */
  async reapOverdueJobs(): Promise<number> {
    let ended = 0;
    for (const job of await findOverdueJobs(this.deps.db)) {
      this.active.get(job.id)?.abort('timeout');
      if (await this.deps.lifecycle.fail(job.id, PROCESS_TIMEOUT)) ended++;
    }
    return ended;
  }

  /** An attempt whose worker stopped renewing its lease is retried, or dead-lettered once retries are spent. */
  async recoverExpiredLeases(): Promise<number> {
    const { db, queue, lifecycle, config } = this.deps;
    let recovered = 0;
    for (const job of await findExpiredLeases(db)) {
      if (this.active.has(job.id)) continue;
      if (job.attempts > config.jobs.retryLimit) {
        await lifecycle.fail(
          job.id,
          {
            code: 'WORKER_LOST',
            category: 'internal',
            message:
              'The worker rendering this job stopped responding on every attempt; the charge was refunded.',
            retryable: true,
          },
          'dead_lettered',
        );
      } else {
        await db.transaction().execute(async (tx) => {
          const current = await tx
            .selectFrom('jobs')
            .select(sql<boolean>`lease_expires_at < now()`.as('expired'))
            .where('id', '=', job.id)
            .forNoKeyUpdate()
            .executeTakeFirst();
          if (!current?.expired) return;
          const requeued = await transitionJob(
            tx,
            job.id,
            'queued',
            { lease_expires_at: null },
            {
              stage: 'retrying',
              message: 'The worker stopped responding; the job will be retried.',
              percent: 0,
            },
          );
          if (requeued) await queue.enqueueGeneration(tx, job.id);
        });
      }
      recovered++;
    }
    return recovered;
  }
}

function extensionOf(path: string): string {
  const match = /\.[A-Za-z0-9]{1,5}$/.exec(path);
  return match ? match[0] : '';
}
