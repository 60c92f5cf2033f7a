import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Executor } from '../db/database.ts';
import { LONGEST_JOB_LIFETIME_SECONDS } from './job-lifetime.ts';

export const QUEUES = {
  generation: 'generation',
  generationDead: 'generation-dead',
  webhook: 'webhook-delivery',
  webhookDead: 'webhook-dead',
} as const;

export interface GenerationMessage {
  jobId: string;
}
export interface WebhookMessage {
  deliveryId: string;
  /** The attempt this message makes (1 = first); absent in messages queued before attempts were numbered. */
  attempt?: number;
  /** How many times this attempt has waited for a free slot at its destination. */
  destinationWaits?: number;
}

/**
 * Retries of a webhook message by the queue itself: only when its handler crashed or was stopped mid-attempt
 * (failed attempts are rescheduled by the sender along the webhook retry schedule).
 */
const WEBHOOK_MESSAGE_RETRIES = 5;

/** Lets pg-boss write inside one of our transactions, so a message exists exactly when its job does. */
function inTransaction(ex: Executor): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const result = await ex.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows };
    },
  };
}

/** pg-boss in the service's own database: retries, dead letters, and expiry of attempts whose worker died. */
export class JobQueue {
  private constructor(
    readonly boss: PgBoss,
    private readonly config: Config,
  ) {}

  static async start(connectionString: string, config: Config, log: Logger): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString,
      schema: 'pgboss',
      max: 6,
      application_name: 'reelsmith-queue',
      maintenanceIntervalSeconds: config.jobs.maintenanceSeconds,
      monitorStateIntervalSeconds: Math.max(1, config.jobs.maintenanceSeconds),
      schedule: false,
    });
    boss.on('error', (error: Error) => log.error({ err: error }, 'queue error'));
    await boss.start();
    const queue = new JobQueue(boss, config);
    await queue.declareQueues();
    return queue;
  }

  private async declareQueues(): Promise<void> {
    const { jobs, webhooks } = this.config;
    const declare = async (name: string, options: Omit<PgBoss.Queue, 'name'>) => {
      await this.boss.createQueue(name, { name, ...options });
      await this.boss.updateQueue(name, { name, ...options });
    };
    await declare(QUEUES.generationDead, { retryLimit: 0 });
    await declare(QUEUES.webhookDead, { retryLimit: 0 });
    await declare(QUEUES.generation, {
      retryLimit: jobs.retryLimit,
      retryDelay: jobs.retryDelaySeconds,
      retryBackoff: true,
      // Crashed attempts are found by the job's own heartbeat lease (see worker.ts); the queue's expiry is only
      // a backstop past the longest lifetime a job can have, so a long job is never handed to a second worker.
      expireInSeconds: Math.max(jobs.maxLifetimeSeconds, LONGEST_JOB_LIFETIME_SECONDS) + 60,
      deadLetter: QUEUES.generationDead,
    });
    await declare(QUEUES.webhook, {
      retryLimit: WEBHOOK_MESSAGE_RETRIES,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: Math.max(30, Math.ceil(webhooks.timeoutMs / 1000) * 3),
      deadLetter: QUEUES.webhookDead,
    });
  }

  async enqueueGeneration(ex: Executor, jobId: string, startAfterSeconds?: number): Promise<void> {
    const message: GenerationMessage = { jobId };
    await this.boss.send(QUEUES.generation, message as object, {
      db: inTransaction(ex),
      ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
    });
  }

  /**
   * The statement pg-boss would run to queue this job's generation message, unrun: for callers that fold the
   * enqueue into a statement of their own (see generation/accept-statement.ts), so the message keeps
   * pg-boss's own defaults and queue policy.
   */
  async generationMessage(
    jobId: string,
    startAfterSeconds?: number,
  ): Promise<{ text: string; values: unknown[] }> {
    let captured: { text: string; values: unknown[] } | undefined;
    const message: GenerationMessage = { jobId };
    await this.boss.send(QUEUES.generation, message as object, {
      db: {
        executeSql: async (text, values) => {
          captured = { text, values: values ?? [] };
          return { rows: [{ id: null }] };
        },
      },
      ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
    });
    if (!captured) throw new Error('pg-boss sent no statement for a generation message');
    return captured;
  }

  /** Queues one webhook attempt, due after `startAfterMs` (the queue's clock counts from the database's now). */
  async enqueueWebhook(ex: Executor, message: WebhookMessage, startAfterMs = 0): Promise<void> {
    // pg-boss reads a number as seconds of an interval; whole milliseconds keep it out of exponent notation.
    const startAfter = Math.round(startAfterMs) / 1000;
    await this.boss.send(QUEUES.webhook, message as object, {
      db: inTransaction(ex),
      ...(startAfter > 0 ? { startAfter } : {}),
    });
  }

  /** Takes up to `count` due webhook messages; each must then be completed or failed. */
  async fetchWebhooks(count: number): Promise<PgBoss.JobWithMetadata<WebhookMessage>[]> {
    return this.boss.fetch<WebhookMessage>(QUEUES.webhook, { batchSize: count, includeMetadata: true });
  }

  /** Completes a webhook message inside `ex`, so its outcome and any follow-up message commit together. */
  async completeWebhook(ex: Executor, messageId: string): Promise<void> {
    await this.boss.complete(QUEUES.webhook, messageId, {}, { db: inTransaction(ex) });
  }

  /** Hands a webhook message back to the queue's own retries (its handler crashed or was stopped). */
  async failWebhook(messageId: string, error: Error): Promise<void> {
    await this.boss.fail(QUEUES.webhook, messageId, { message: error.message });
  }

  async depth(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const name of Object.values(QUEUES)) out[name] = await this.boss.getQueueSize(name);
    return out;
  }

  async stop(graceful = true): Promise<void> {
    await this.boss.stop({ graceful, wait: true, timeout: 30_000 });
  }
}
