import { sql } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { QUEUES, type JobQueue, type WebhookMessage } from '../jobs/queue.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import { signWebhook } from './webhook-signature.ts';

/** Delivers queued webhooks: signed, through the URL guard, retried with backoff by the queue until 2xx. */
export class WebhookSender {
  constructor(
    private readonly deps: { db: Db; queue: JobQueue; urlGuard: UrlGuard; config: Config; log: Logger },
  ) {}

  async start(): Promise<void> {
    const options = {
      batchSize: 1,
      includeMetadata: true,
      pollingIntervalSeconds: this.deps.config.jobs.pollSeconds,
    } as const;
    await this.deps.queue.boss.work<WebhookMessage>(QUEUES.webhook, options, ([message]) =>
      this.deliver(message!),
    );
    await this.deps.queue.boss.work<WebhookMessage>(QUEUES.webhookDead, options, ([message]) =>
      this.giveUp(message!),
    );
  }

  async stop(): Promise<void> {
    await this.deps.queue.boss.offWork(QUEUES.webhook);
    await this.deps.queue.boss.offWork(QUEUES.webhookDead);
  }

  private async deliver(message: PgBoss.JobWithMetadata<WebhookMessage>): Promise<void> {
    const { db, urlGuard, config, log } = this.deps;
    const delivery = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('accounts', 'accounts.id', 'webhook_deliveries.account_id')
      .select(['webhook_deliveries.id', 'url', 'event_type', 'payload', 'state', 'accounts.webhook_secret'])
      .where('webhook_deliveries.id', '=', message.data.deliveryId)
      .executeTakeFirst();
    if (!delivery || delivery.state !== 'pending') return;

    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let failure: string | null = null;
    try {
      const response = await urlGuard.request(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Reelsmith-Webhooks/1.0',
          'x-service-signature': signWebhook(delivery.webhook_secret, body, timestamp),
          'x-service-event-type': delivery.event_type,
          'x-service-event-id': delivery.id,
        },
        body,
        timeoutMs: config.webhooks.timeoutMs,
        maxRedirects: 0,
        maxBytes: 64 * 1024,
      });
      status = response.status;
      if (status < 200 || status >= 300) failure = `receiver answered HTTP ${status}`;
    } catch (error) {
      failure = (error as Error).message;
    }
    await db
      .updateTable('webhook_deliveries')
      .set({
        attempts: sql`attempts + 1`,
        last_status: status,
        last_error: failure,
        ...(failure ? {} : { state: 'delivered' as const, delivered_at: new Date() }),
      })
      .where('id', '=', delivery.id)
      .execute();
    if (failure) {
      log.warn(
        { deliveryId: delivery.id, attempt: message.retryCount + 1, failure },
        'webhook delivery failed; will retry',
      );
      throw new Error(failure);
    }
  }

  private async giveUp(message: PgBoss.JobWithMetadata<WebhookMessage>): Promise<void> {
    await this.deps.db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed' })
      .where('id', '=', message.data.deliveryId)
      .where('state', '=', 'pending')
      .execute();
  }
}
