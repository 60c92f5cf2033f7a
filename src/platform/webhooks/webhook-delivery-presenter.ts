import type { AttemptRow, DeliveryWithAttempts } from './webhook-deliveries-repo.ts';

// How deliveries and attempts read in GET /webhook-deliveries and in the job record (docs/webhooks.md).

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** status: the receiver's HTTP status, or null with `error` saying why it gave none. */
export function presentAttempt(attempt: AttemptRow): Record<string, unknown> {
  return {
    attempt: attempt.attempt,
    at: iso(attempt.started_at),
    status: attempt.status,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
  };
}

export function presentDelivery({ delivery, attempts }: DeliveryWithAttempts): Record<string, unknown> {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    job_id: delivery.job_id,
    url: delivery.url,
    state: delivery.state,
    created_at: iso(delivery.created_at),
    delivered_at: iso(delivery.delivered_at),
    next_attempt_at: iso(delivery.next_attempt_at),
    attempts: attempts.map(presentAttempt),
  };
}

/**
 * The job record's `webhook`: the state of its latest delivery and every attempt of every delivery (a
 * redelivery adds one), oldest first. A job that has not ended has no delivery yet: state `not_sent`.
 */
export function presentJobWebhook(url: string, deliveries: DeliveryWithAttempts[]): Record<string, unknown> {
  const latest = deliveries.at(-1)?.delivery;
  return {
    url,
    delivery_id: latest?.id ?? null,
    state: latest?.state ?? 'not_sent',
    next_attempt_at: iso(latest?.next_attempt_at ?? null),
    attempts: deliveries.flatMap(({ delivery, attempts }) =>
      attempts.map((attempt) => ({ delivery_id: delivery.id, ...presentAttempt(attempt) })),
    ),
  };
}
