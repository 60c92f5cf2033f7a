import { createHmac, timingSafeEqual } from 'node:crypto';

/** The body of a webhook callback (docs/webhooks.md). */
export interface WebhookEvent {
  event_id: string;
  event_type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export type WebhookRefusal =
  'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature';

/** A callback that must not be trusted; `reason` says which check refused it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookRefusal,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks an `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` header against
 * the account's secret (GET /api/v1/webhook-secret) and returns the parsed event. `body` must be the raw bytes
 * as received: parsed and re-serialised JSON no longer matches. Timestamps more than `toleranceSeconds` away
 * from this machine's clock are refused, so a captured callback cannot be replayed later.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string,
  toleranceSeconds = 300,
  now: number = Date.now() / 1000,
): WebhookEvent {
  const value = Array.isArray(header) ? header.join(',') : (header as string | null | undefined);
  if (!value) throw new WebhookVerificationError('missing_signature', 'no X-Service-Signature header');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const [name, field] = part.trim().split('=', 2);
    if (name === 't' && field && /^\d+$/.test(field)) timestamp = Number(field);
    // Every v1 entry is a candidate: a sender rotating its secret may sign with both.
    else if (name === 'v1' && field && /^[0-9a-f]{64}$/i.test(field))
      signatures.push(Buffer.from(field, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new WebhookVerificationError(
      'malformed_signature',
      `X-Service-Signature is not "t=<unix seconds>,v1=<64 hex digits>": ${value.slice(0, 120)}`,
    );
  if (Math.abs(now - timestamp) > toleranceSeconds)
    throw new WebhookVerificationError(
      'stale_timestamp',
      `the signature's timestamp is ${Math.round(Math.abs(now - timestamp))} s away from this clock (tolerance ${toleranceSeconds} s)`,
    );
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  if (!signatures.some((signature) => timingSafeEqual(signature, expected)))
    throw new WebhookVerificationError(
      'bad_signature',
      'the signature does not match the body: wrong secret, or the body was changed (verify the raw bytes)',
    );
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return JSON.parse(text) as WebhookEvent;
}
