import type pg from 'pg';

// A paid acceptance of one job in one statement, so one round trip and its own transaction: the job, its first
// event, its queue message, the charge, the ledger entry and the stored answers. The charge comes after the job
// and its message are written, so the account row is locked only for the last writes and the commit; a charge
// the balance does not cover raises RS402 (migration 0020), which undoes the whole statement.

/** A pg-boss insert statement as captured from JobQueue.generationMessage. */
export interface QueueInsert {
  text: string;
  values: unknown[];
}

export interface OneJobAcceptance {
  accountId: string;
  apiKeyId: string;
  cents: number;
  reason: string;
  job: {
    id: string;
    mode: string;
    endpoint: string;
    heavy: boolean;
    request: unknown;
    videoId: string;
    webhookUrl: string | null;
    privateDelivery: boolean;
    listing: string;
    agentRunId: string | null;
    batchId: string | null;
    deadlineAt: Date;
  };
  /** The idempotency key and request fingerprint this request holds (undefined: none). */
  key: string | undefined;
  fingerprint: string | undefined;
  /** The answer to store; its meta.credits_remaining is set to the balance the charge left. */
  answer: { status: number; body: Record<string, unknown>; headers: Record<string, string> };
  message: QueueInsert;
}

const OWN_PARAMETERS = 21;
/** SQLSTATE of charged_or_refused: the balance did not cover the charge and nothing was written. */
const REFUSED = 'RS402';

/** pg-boss's insert with its parameters numbered after ours. */
function shiftedMessage(text: string): string {
  return text.replace(/\$(\d+)/g, (_, digits: string) => `$${Number(digits) + OWN_PARAMETERS}`);
}

let statement: { text: string; boss: string } | undefined;

function statementFor(bossText: string): string {
  if (statement?.boss === bossText) return statement.text;
  // The main query's sub-selects run in order: the job, then its message, then the charge. The CTEs nothing
  // reads (the event, the entry, the stored answers) run after it, the last two from the charge's balance.
  const text = `WITH job AS (
      INSERT INTO jobs (id, account_id, api_key_id, sandbox, mode, operation, endpoint, status, heavy, request,
        price_cents, video_id, webhook_url, private_delivery, listing, agent_run_id, batch_id, deadline_at)
      VALUES ($3, $1, $5, false, $6, $6, $7, 'queued', $8, $9::jsonb, $2::int, $10, $11, $12, $13, $14, $15, $16)
      RETURNING id
    ), event AS (
      INSERT INTO job_events (job_id, status, stage, message, percent)
      VALUES ($3, 'queued', 'queued', 'Accepted; waiting for a worker.', 0)
    ), message AS (${shiftedMessage(bossText)}
    ), charged AS (
      UPDATE accounts SET balance_cents = balance_cents - $2::bigint
      WHERE id = $1 AND balance_cents >= $2::bigint
      RETURNING balance_cents
    ), entry AS (
      INSERT INTO ledger_entries (account_id, kind, amount_cents, balance_after_cents, job_id, reason)
      SELECT $1::text, 'charge', -$2::bigint, balance_cents, $3::text, $4::text FROM charged
    ), answer AS (
      SELECT jsonb_set($20::jsonb, '{meta,credits_remaining}', to_jsonb(balance_cents)) AS body FROM charged
    ), keyed AS (
      UPDATE idempotency_records r
      SET state = 'done', status_code = $19, response_body = answer.body, response_headers = $21::jsonb,
        job_ids = ARRAY[$3::text]
      FROM answer WHERE r.account_id = $1 AND r.key = $17
    ), printed AS (
      UPDATE request_fingerprints f
      SET state = 'accepted', status_code = $19, response_body = answer.body, response_headers = $21::jsonb,
        job_ids = ARRAY[$3::text], accepted_at = now()
      FROM answer WHERE f.account_id = $1 AND f.fingerprint = $18
    )
    SELECT (SELECT count(*) FROM job) AS jobs, (SELECT count(*) FROM message) AS messages,
      charged_or_refused((SELECT balance_cents FROM charged)) AS balance_cents`;
  statement = { text, boss: bossText };
  return text;
}

/**
 * Runs the acceptance; returns the balance the charge left, or undefined when the balance did not cover it
 * (nothing was written: the caller takes the locking path, which reports the balance or charges after a top-up).
 */
export async function acceptOneJob(pool: pg.Pool, a: OneJobAcceptance): Promise<number | undefined> {
  const { job } = a;
  const values = [
    a.accountId,
    a.cents,
    job.id,
    a.reason,
    a.apiKeyId,
    job.mode,
    job.endpoint,
    job.heavy,
    JSON.stringify(job.request),
    job.videoId,
    job.webhookUrl,
    job.privateDelivery,
    job.listing,
    job.agentRunId,
    job.batchId,
    job.deadlineAt,
    a.key ?? null,
    a.fingerprint ?? null,
    a.answer.status,
    JSON.stringify(a.answer.body),
    JSON.stringify(a.answer.headers),
    ...a.message.values,
  ];
  try {
    // Named: PostgreSQL parses and plans this once per connection.
    const result = await pool.query<{ balance_cents: number }>({
      name: 'AcceptOneJob',
      text: statementFor(a.message.text),
      values,
    });
    return Number(result.rows[0]!.balance_cents);
  } catch (error) {
    if ((error as { code?: string }).code === REFUSED) return undefined;
    throw error;
  }
}
