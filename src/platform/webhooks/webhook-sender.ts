import { performance } from 'node:perf_hooks';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { QUEUES, type JobQueue, type WebhookMessage } from '../jobs/queue.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import { destinationWaitMs, retryDelayMs } from './retry-schedule.ts';
import {
  claimAttempt,
  markDeliveryFailed,
  recordAttempt,
  releaseLease,
  type AttemptOutcome,
  type ClaimedDelivery,
} from './webhook-deliveries-repo.ts';
import { signWebhook } from './webhook-signature.ts';

/** A lease outlives its attempt by this much, so it is never taken over while the request may still run. */
const LEASE_MARGIN_MS = 5000;
const MAX_RESPONSE_BYTES = 64 * 1024;

type Message = PgBoss.JobWithMetadata<WebhookMessage>;

/**
 * Delivers queued webhooks, signed and through the URL guard: up to `webhooks.concurrency` at once in this
 * process, never more than `webhooks.destinationConcurrency` in flight per destination across all processes
 * (an attempt for a full destination waits and gives its slot to another), retried along retry-schedule.ts.
 */
export class WebhookSender {
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private pump: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly deps: { db: Db; queue: JobQueue; urlGuard: UrlGuard; config: Config; log: Logger },
  ) {}

  async start(): Promise<void> {
    this.pump = this.pumpMessages();
    await this.deps.queue.boss.work<WebhookMessage>(
      QUEUES.webhookDead,
      { batchSize: 1, pollingIntervalSeconds: this.deps.config.jobs.pollSeconds },
      ([message]) => markDeliveryFailed(this.deps.db, message!.data.deliveryId),
    );
  }

  /** Stops taking messages and cuts attempts in flight short; their messages go back to the queue. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.pump;
    await Promise.allSettled([...this.running]);
    await this.deps.queue.boss.offWork(QUEUES.webhookDead);
  }

  private async pumpMessages(): Promise<void> {
    const { queue, config, log } = this.deps;
    while (!this.stopping.signal.aborted) {
      const free = config.webhooks.concurrency - this.running.size;
      try {
        if (free > 0) for (const message of await queue.fetchWebhooks(free)) this.track(this.handle(message));
      } catch (error) {
        log.error({ err: error }, 'could not fetch webhook messages');
      }
      await this.pause(config.jobs.pollSeconds * 1000);
    }
  }

  /** Waits for the poll interval, a slot freed while all were busy, or the stop. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      timer = setTimeout(done, ms);
      this.wake = done;
      this.stopping.signal.addEventListener('abort', done);
    });
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => {
      const wasFull = this.running.size >= this.deps.config.webhooks.concurrency;
      this.running.delete(work);
      if (wasFull) this.wake?.();
    });
  }

  private async handle(message: Message): Promise<void> {
    try {
      await this.process(message);
    } catch (error) {
      this.deps.log.warn(
        { err: error, deliveryId: message.data.deliveryId },
        'webhook message not processed; the queue retries it',
      );
      await this.deps.queue.failWebhook(message.id, error as Error).catch(() => {});
    }
  }

  private async process(message: Message): Promise<void> {
    const { db, queue, config } = this.deps;
    const { deliveryId, destinationWaits = 0 } = message.data;
    if (this.stopping.signal.aborted) throw new Error('the service is stopping');
    const claim = await claimAttempt(db, deliveryId, message.data.attempt, {
      destinationCap: config.webhooks.destinationConcurrency,
      leaseMs: config.webhooks.timeoutMs + LEASE_MARGIN_MS,
    });
    if (claim.kind === 'done') return queue.completeWebhook(db, message.id);
    if (claim.kind === 'wait') {
      const waitMs = claim.leaseLeftMs ?? destinationWaitMs(destinationWaits);
      const next = { deliveryId, attempt: claim.attempt, destinationWaits: destinationWaits + 1 };
      await db.transaction().execute(async (tx) => {
        await queue.enqueueWebhook(tx, next, waitMs);
        await queue.completeWebhook(tx, message.id);
      });
      return;
    }

    const outcome = await this.attempt(claim.delivery);
    if (this.stopping.signal.aborted && !outcome.delivered) {
      await releaseLease(db, deliveryId);
      throw new Error('the service stopped during the attempt');
    }
    await db.transaction().execute(async (tx) => {
      if (await recordAttempt(tx, outcome))
        await queue.enqueueWebhook(tx, { deliveryId, attempt: outcome.attempt + 1 }, outcome.nextDelayMs);
      await queue.completeWebhook(tx, message.id);
    });
    if (!outcome.delivered)
      this.deps.log.warn(
        {
          deliveryId,
          attempt: outcome.attempt,
          status: outcome.status,
          error: outcome.error,
          nextDelayMs: outcome.nextDelayMs,
        },
        outcome.nextDelayMs === undefined ? 'webhook delivery failed for good' : 'webhook attempt failed',
      );
  }

  /** One signed POST; its outcome, never an exception. */
  private async attempt(delivery: ClaimedDelivery): Promise<AttemptOutcome> {
    const { urlGuard, config } = this.deps;
    const body = JSON.stringify(delivery.payload);
    const startedAt = new Date();
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await urlGuard.request(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Reelsmith-Webhooks/1.0',
          'x-service-signature': signWebhook(delivery.secret, body, Math.floor(Date.now() / 1000)),
          'x-service-event-type': delivery.eventType,
          'x-service-event-id': delivery.eventId,
        },
        body,
        timeoutMs: config.webhooks.timeoutMs,
        maxRedirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
        signal: this.stopping.signal,
      });
      status = response.status;
    } catch (failure) {
      error = (failure as Error).message;
    }
    const delivered = status !== null && status >= 200 && status < 300;
    return {
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      startedAt,
      durationMs: Math.round(performance.now() - started),
      status,
      error,
      delivered,
      nextDelayMs: delivered ? undefined : retryDelayMs(delivery.attempt, config.webhooks),
    };
  }
}
