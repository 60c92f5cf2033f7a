import { sql, type Selectable } from 'kysely';
import type { Db, Executor } from '../db/database.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookDeliveryState } from '../db/schema.ts';

// Data access for webhook deliveries and their attempts. A delivery is one event on its way to one URL; a
// pending delivery holds a lease while an attempt is in flight, and the leases of one destination (URL origin)
// are counted under an advisory lock, so the cap on attempts in flight holds across every process.

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export interface DeliveryWithAttempts {
  delivery: DeliveryRow;
  attempts: AttemptRow[];
}

export interface NewDelivery {
  id: string;
  eventId: string;
  accountId: string;
  jobId: string;
  url: string;
  eventType: string;
  payload: unknown;
}

/** The destination whose attempts in flight are capped together: scheme, host and port. */
export function destinationOf(url: string): string {
  return new URL(url).origin;
}

export async function insertDelivery(ex: Executor, delivery: NewDelivery): Promise<void> {
  await ex
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      event_id: delivery.eventId,
      account_id: delivery.accountId,
      job_id: delivery.jobId,
      url: delivery.url,
      destination: destinationOf(delivery.url),
      event_type: delivery.eventType,
      payload: JSON.stringify(delivery.payload),
      next_attempt_at: sql<Date>`now()`,
    })
    .execute();
}

/** What an attempt needs to be sent. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  url: string;
  eventType: string;
  payload: unknown;
  secret: string;
  attempt: number;
}

export type Claim =
  | { kind: 'claimed'; delivery: ClaimedDelivery }
  /** The attempt must wait: `leaseLeftMs` when another process holds it, else its destination is full. */
  | { kind: 'wait'; attempt: number; leaseLeftMs: number | undefined }
  /** Nothing to send: delivered, given up, superseded, or this attempt was already made. */
  | { kind: 'done' };

/**
 * Takes the lease for attempt `attempt` (the next one when undefined) of a pending delivery, unless another
 * process holds it or the destination already has `destinationCap` attempts in flight.
 */
export async function claimAttempt(
  db: Db,
  deliveryId: string,
  attempt: number | undefined,
  limits: { destinationCap: number; leaseMs: number },
): Promise<Claim> {
  return db.transaction().execute(async (tx): Promise<Claim> => {
    const row = await tx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('accounts as a', 'a.id', 'd.account_id')
      .select([
        'd.id',
        'd.event_id',
        'd.url',
        'd.destination',
        'd.event_type',
        'd.payload',
        'd.state',
        'd.attempts',
        'a.webhook_secret',
        sql<number | null>`(extract(epoch FROM d.lease_expires_at - now()) * 1000)::float8`.as(
          'lease_left_ms',
        ),
      ])
      .where('d.id', '=', deliveryId)
      .forNoKeyUpdate('d')
      .executeTakeFirst();
    const next = (row?.attempts ?? 0) + 1;
    if (!row || row.state !== 'pending' || (attempt !== undefined && attempt !== next))
      return { kind: 'done' };
    if (row.lease_left_ms !== null && row.lease_left_ms > 0)
      return { kind: 'wait', attempt: next, leaseLeftMs: row.lease_left_ms };

    await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhook-destination:${row.destination}`}))`.execute(
      tx,
    );
    const { in_flight } = await tx
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('in_flight'))
      .where('destination', '=', row.destination)
      .where('lease_expires_at', '>', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    if (Number(in_flight) >= limits.destinationCap)
      return { kind: 'wait', attempt: next, leaseLeftMs: undefined };

    await tx
      .updateTable('webhook_deliveries')
      .set({ lease_expires_at: sql<Date>`now() + ${limits.leaseMs} * interval '1 millisecond'` })
      .where('id', '=', deliveryId)
      .execute();
    return {
      kind: 'claimed',
      delivery: {
        id: row.id,
        eventId: row.event_id,
        url: row.url,
        eventType: row.event_type,
        payload: row.payload,
        secret: row.webhook_secret,
        attempt: next,
      },
    };
  });
}

export interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
  delivered: boolean;
  /** The wait before the next attempt; undefined when this was the last one allowed. */
  nextDelayMs: number | undefined;
}

/**
 * Records an attempt and releases its lease. Returns true when the delivery stays pending and the next attempt
 * must be queued (in the same transaction), false when it is finished or was superseded meanwhile.
 */
export async function recordAttempt(tx: Executor, outcome: AttemptOutcome): Promise<boolean> {
  const { delivered, nextDelayMs } = outcome;
  const retry = !delivered && nextDelayMs !== undefined;
  const updated = await tx
    .updateTable('webhook_deliveries')
    .set({
      attempts: outcome.attempt,
      last_status: outcome.status,
      last_error: outcome.error,
      lease_expires_at: null,
      ...(delivered
        ? { state: 'delivered', delivered_at: sql<Date>`now()`, next_attempt_at: null }
        : retry
          ? {
              next_attempt_at: sql<Date | null>`CASE WHEN state = 'pending'
                THEN now() + ${nextDelayMs} * interval '1 millisecond' END`,
            }
          : {
              state: sql<WebhookDeliveryState>`CASE WHEN state = 'pending' THEN 'failed' ELSE state END`,
              next_attempt_at: null,
            }),
    })
    .where('id', '=', outcome.deliveryId)
    .where('attempts', '=', outcome.attempt - 1)
    .returning('state')
    .executeTakeFirst();
  if (!updated) return false;
  await tx
    .insertInto('webhook_attempts')
    .values({
      delivery_id: outcome.deliveryId,
      attempt: outcome.attempt,
      started_at: outcome.startedAt,
      duration_ms: outcome.durationMs,
      status: outcome.status,
      error: outcome.error,
    })
    .execute();
  return retry && updated.state === 'pending';
}

/** Gives back the lease of an attempt that was stopped before it had an outcome. */
export async function releaseLease(ex: Executor, deliveryId: string): Promise<void> {
  await ex
    .updateTable('webhook_deliveries')
    .set({ lease_expires_at: null })
    .where('id', '=', deliveryId)
    .execute();
}

/** Ends a delivery whose queue messages kept crashing. */
export async function markDeliveryFailed(ex: Executor, deliveryId: string): Promise<void> {
  await ex
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', next_attempt_at: null, lease_expires_at: null })
    .where('id', '=', deliveryId)
    .where('state', '=', 'pending')
    .execute();
}

async function withAttempts(ex: Executor, deliveries: DeliveryRow[]): Promise<DeliveryWithAttempts[]> {
  if (deliveries.length === 0) return [];
  const attempts = await ex
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  // The two reads are not one snapshot: an attempt recorded between them is left out, so the attempts always
  // match the delivery row they are shown with (its count, state and next_attempt_at).
  return deliveries.map((delivery) => ({
    delivery,
    attempts: attempts.filter((a) => a.delivery_id === delivery.id && a.attempt <= delivery.attempts),
  }));
}

export interface DeliveryFilter {
  jobId?: string | undefined;
  state?: WebhookDeliveryState | undefined;
  limit: number;
}

/** An account's most recent deliveries, newest first, with their attempts. */
export async function listAccountDeliveries(
  ex: Executor,
  accountId: string,
  filter: DeliveryFilter,
): Promise<DeliveryWithAttempts[]> {
  let query = ex.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId);
  if (filter.jobId !== undefined) query = query.where('job_id', '=', filter.jobId);
  if (filter.state !== undefined) query = query.where('state', '=', filter.state);
  const deliveries = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
  return withAttempts(ex, deliveries);
}

/** Every delivery of one of the account's jobs, oldest first, with their attempts. */
export async function listJobDeliveries(
  ex: Executor,
  accountId: string,
  jobId: string,
): Promise<DeliveryWithAttempts[]> {
  const deliveries = await ex
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('job_id', '=', jobId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return withAttempts(ex, deliveries);
}

export async function findAccountDelivery(
  ex: Executor,
  accountId: string,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
  return ex
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Ends the pending delivery of an event (if any), which a redelivery replaces; serialized per event. */
export async function supersedePending(tx: Executor, eventId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhook-event:${eventId}`}))`.execute(tx);
  await tx
    .updateTable('webhook_deliveries')
    .set({ state: 'superseded', next_attempt_at: null })
    .where('event_id', '=', eventId)
    .where('state', '=', 'pending')
    .execute();
}
