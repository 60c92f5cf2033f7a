import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.ts';
import { errors } from '../errors.ts';
import { canonicalJson, sha256 } from './canonical-json.ts';

// Spec 1 §4.1 and §8: the Idempotency-Key replay (24 h) and the identical-request guard (same account,
// endpoint and body; 5 minutes after acceptance). Both live in PostgreSQL so they hold across processes.

export const KEY_TTL_SECONDS = 24 * 3600;
export const IDENTICAL_WINDOW_SECONDS = 5 * 60;
export const WAIT_FOR_FIRST_MS = 10_000;
/** A claim older than this belongs to a process that died mid-request; another request may take over. */
const CLAIM_LEASE_SECONDS = 120;
const POLL_MS = 50;

export interface StoredAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  jobIds: string[];
}

export type ReplayMatch = 'key' | 'body';

export interface IdempotencyScope {
  accountId: string;
  endpoint: string;
  key: string | undefined;
  body: unknown;
  repeatToken: string | undefined;
  /** Identical-request protection applies to this endpoint and request (never to sandbox calls). */
  identical: boolean;
}

export type ClaimResult =
  { kind: 'replay'; answer: StoredAnswer; match: ReplayMatch } | { kind: 'claimed'; claim: Claim };

/** What a request holds while it is being handled; settle it exactly once. */
export interface Claim {
  /** The Idempotency-Key this request holds, if any (its answer is stored under it on accept). */
  readonly key: string | undefined;
  /** The request fingerprint this request holds, if any (identical-request protection). */
  readonly fingerprint: string | undefined;
  /**
   * Inside the transaction that creates the jobs: stores the accepted answer under the key and the body.
   * `items`: answers of the request's parts stored under `<key><suffix>` too (a variant set's jobs under
   * `<key>:v<index>`), so the same body sent with an item's key replays that item; a key already taken by
   * another request keeps its own answer.
   */
  accept(
    ex: Executor,
    answer: StoredAnswer,
    items?: { suffix: string; answer: StoredAnswer }[],
  ): Promise<void>;
  /** An answer that created no job (a refusal, a sandbox or batch answer): stored under the key only. */
  record(answer: StoredAnswer): Promise<void>;
  /** Forget the claim entirely (server errors, REQUEST_IN_PROGRESS): a retry with the same key runs again. */
  release(): Promise<void>;
}

export function validateIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && (key.length < 8 || key.length > 256)) throw errors.idempotencyKeyInvalid();
}

export class Idempotency {
  /**
   * @param db claims, reads and releases; a session with synchronous_commit off is fine (a claim lost in a
   *   crash only lets a retry run again). Accepted answers are stored in the caller's durable transaction.
   */
  constructor(private readonly db: Db) {}

  async claim(scope: IdempotencyScope): Promise<ClaimResult> {
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    const canonical = canonicalJson(scope.body);
    const requestHash = sha256(`${scope.endpoint}\n${canonical}`);
    const fingerprint = scope.identical
      ? sha256(`${scope.endpoint}\n${canonical}\n${scope.repeatToken ?? ''}`)
      : undefined;
    let keyHeld = false;
    if (scope.key !== undefined && fingerprint !== undefined) {
      // The usual case, a new key and a new body, takes one round trip; anything else takes the loops below.
      const both = await this.claimBoth(scope, requestHash, fingerprint);
      if (both === 'both') return { kind: 'claimed', claim: this.makeClaim(scope, true, fingerprint) };
      keyHeld = both === 'key';
    }
    if (scope.key !== undefined && !keyHeld) {
      const outcome = await this.claimKey(scope, requestHash, deadline);
      if (outcome) return outcome;
      keyHeld = true;
    }
    if (fingerprint !== undefined) {
      try {
        const replay = await this.claimFingerprint(scope.accountId, fingerprint, deadline);
        if (replay) {
          if (keyHeld) await this.storeUnderKey(this.db, scope, replay);
          return { kind: 'replay', answer: replay, match: 'body' };
        }
      } catch (error) {
        if (keyHeld) await this.deleteKey(scope);
        throw error;
      }
    }
    return { kind: 'claimed', claim: this.makeClaim(scope, keyHeld, fingerprint) };
  }

  private makeClaim(scope: IdempotencyScope, keyHeld: boolean, fingerprint: string | undefined): Claim {
    let settled = false;
    const once = () => {
      if (settled) throw new Error('idempotency claim settled twice');
      settled = true;
    };
    return {
      key: keyHeld ? scope.key : undefined,
      fingerprint,
      // Not marked settled: if the surrounding transaction rolls back, the claim is still to be recorded or released.
      accept: async (ex, answer, items = []) => {
        if (keyHeld) await this.storeUnderKey(ex, scope, answer);
        if (keyHeld && items.length > 0) await this.storeItems(ex, scope, items);
        if (fingerprint) {
          await ex
            .updateTable('request_fingerprints')
            .set({
              state: 'accepted',
              status_code: answer.status,
              response_body: JSON.stringify(answer.body),
              response_headers: JSON.stringify(answer.headers),
              job_ids: answer.jobIds,
              accepted_at: sql`now()`,
            })
            .where('account_id', '=', scope.accountId)
            .where('fingerprint', '=', fingerprint)
            .execute();
        }
      },
      record: async (answer) => {
        once();
        if (keyHeld) await this.storeUnderKey(this.db, scope, answer);
        if (fingerprint) await this.deleteFingerprint(scope.accountId, fingerprint);
      },
      release: async () => {
        once();
        if (keyHeld) await this.deleteKey(scope);
        if (fingerprint) await this.deleteFingerprint(scope.accountId, fingerprint);
      },
    };
  }

  /** Inserts the key and, only if that succeeded, the fingerprint, in one statement: which ones it now holds. */
  private async claimBoth(
    scope: IdempotencyScope,
    requestHash: string,
    fingerprint: string,
  ): Promise<'both' | 'key' | 'none'> {
    const { rows } = await sql<{ key: boolean; print: boolean }>`
      WITH claimed_key AS (
        INSERT INTO idempotency_records (account_id, key, endpoint, request_hash, state, locked_until, expires_at)
        VALUES (${scope.accountId}, ${scope.key!}, ${scope.endpoint}, ${requestHash}, 'pending',
          now() + make_interval(secs => ${CLAIM_LEASE_SECONDS}), now() + make_interval(secs => ${KEY_TTL_SECONDS}))
        ON CONFLICT (account_id, key) DO NOTHING
        RETURNING key
      ), claimed_print AS (
        INSERT INTO request_fingerprints (account_id, fingerprint, state, locked_until)
        SELECT ${scope.accountId}, ${fingerprint}, 'pending', now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
        FROM claimed_key
        ON CONFLICT (account_id, fingerprint) DO NOTHING
        RETURNING fingerprint
      )
      SELECT EXISTS (SELECT FROM claimed_key) AS key, EXISTS (SELECT FROM claimed_print) AS print
    `.execute(this.db);
    const row = rows[0]!;
    return row.print ? 'both' : row.key ? 'key' : 'none';
  }

  /** Returns a replay, or undefined once this request holds the key. */
  private async claimKey(
    scope: IdempotencyScope,
    requestHash: string,
    deadline: number,
  ): Promise<ClaimResult | undefined> {
    const key = scope.key!;
    for (;;) {
      const inserted = await this.db
        .insertInto('idempotency_records')
        .values({
          account_id: scope.accountId,
          key,
          endpoint: scope.endpoint,
          request_hash: requestHash,
          state: 'pending',
          locked_until: sql`now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})`,
          expires_at: sql`now() + make_interval(secs => ${KEY_TTL_SECONDS})`,
        })
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return undefined;

      const existing = await this.db
        .selectFrom('idempotency_records')
        .select([
          'endpoint',
          'request_hash',
          'state',
          'status_code',
          'response_body',
          'response_headers',
          'job_ids',
          sql<boolean>`expires_at < now()`.as('expired'),
          sql<boolean>`locked_until < now()`.as('stale'),
        ])
        .where('account_id', '=', scope.accountId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!existing) continue;
      if (existing.expired || (existing.state === 'pending' && existing.stale)) {
        await this.db
          .deleteFrom('idempotency_records')
          .where('account_id', '=', scope.accountId)
          .where('key', '=', key)
          .where((eb) =>
            eb.or([
              eb('expires_at', '<', sql<Date>`now()`),
              eb.and([eb('state', '=', 'pending'), eb('locked_until', '<', sql<Date>`now()`)]),
            ]),
          )
          .execute();
        continue;
      }
      if (existing.request_hash !== requestHash) throw errors.resourceAlreadyExists();
      if (existing.state === 'done') {
        return {
          kind: 'replay',
          match: 'key',
          answer: {
            status: existing.status_code ?? 200,
            body: existing.response_body as Record<string, unknown>,
            headers: (existing.response_headers as Record<string, string>) ?? {},
            jobIds: existing.job_ids,
          },
        };
      }
      if (Date.now() >= deadline) throw errors.requestInProgress();
      await sleep(POLL_MS);
    }
  }

  /** Returns the first answer to replay, or undefined once this request holds the fingerprint. */
  private async claimFingerprint(
    accountId: string,
    fingerprint: string,
    deadline: number,
  ): Promise<StoredAnswer | undefined> {
    for (;;) {
      const inserted = await this.db
        .insertInto('request_fingerprints')
        .values({
          account_id: accountId,
          fingerprint,
          state: 'pending',
          locked_until: sql`now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})`,
        })
        .onConflict((oc) => oc.columns(['account_id', 'fingerprint']).doNothing())
        .returning('fingerprint')
        .executeTakeFirst();
      if (inserted) return undefined;

      const existing = await this.db
        .selectFrom('request_fingerprints')
        .select([
          'state',
          'status_code',
          'response_body',
          'response_headers',
          'job_ids',
          sql<string>`locked_until::text`.as('lock_token'),
          sql<boolean>`locked_until < now()`.as('stale'),
          sql<boolean>`accepted_at > now() - make_interval(secs => ${IDENTICAL_WINDOW_SECONDS})`.as('fresh'),
        ])
        .where('account_id', '=', accountId)
        .where('fingerprint', '=', fingerprint)
        .executeTakeFirst();
      if (!existing) continue;

      if (existing.state === 'accepted' && existing.fresh && !(await this.allJobsFailed(existing.job_ids))) {
        return {
          status: existing.status_code ?? 200,
          body: existing.response_body as Record<string, unknown>,
          headers: (existing.response_headers as Record<string, string>) ?? {},
          jobIds: existing.job_ids,
        };
      }
      if (existing.state !== 'pending' || existing.stale) {
        // The first request's window passed, its jobs all failed, or its process died: this one takes over,
        // unless another request changed the row since it was read.
        const taken = await this.db
          .updateTable('request_fingerprints')
          .set({
            state: 'pending',
            locked_until: sql`now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})`,
            accepted_at: null,
          })
          .where('account_id', '=', accountId)
          .where('fingerprint', '=', fingerprint)
          .where('state', '=', existing.state)
          .where(sql<boolean>`locked_until::text = ${existing.lock_token}`)
          .returning('fingerprint')
          .executeTakeFirst();
        if (taken) return undefined;
        continue;
      }
      if (Date.now() >= deadline) throw errors.requestInProgress();
      await sleep(POLL_MS);
    }
  }

  private async allJobsFailed(jobIds: string[]): Promise<boolean> {
    if (jobIds.length === 0) return false;
    const open = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', jobIds)
      .where('status', 'not in', ['failed', 'dead_lettered'])
      .executeTakeFirst();
    return !open;
  }

  private async storeUnderKey(ex: Executor, scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
    await ex
      .updateTable('idempotency_records')
      .set({
        state: 'done',
        status_code: answer.status,
        response_body: JSON.stringify(answer.body),
        response_headers: JSON.stringify(answer.headers),
        job_ids: answer.jobIds,
      })
      .where('account_id', '=', scope.accountId)
      .where('key', '=', scope.key!)
      .execute();
  }

  private async storeItems(
    ex: Executor,
    scope: IdempotencyScope,
    items: { suffix: string; answer: StoredAnswer }[],
  ): Promise<void> {
    const requestHash = sha256(`${scope.endpoint}\n${canonicalJson(scope.body)}`);
    await ex
      .insertInto('idempotency_records')
      .values(
        items.map(({ suffix, answer }) => ({
          account_id: scope.accountId,
          key: `${scope.key!}${suffix}`,
          endpoint: scope.endpoint,
          request_hash: requestHash,
          state: 'done',
          status_code: answer.status,
          response_body: JSON.stringify(answer.body),
          response_headers: JSON.stringify(answer.headers),
          job_ids: answer.jobIds,
          locked_until: sql`now()`,
          expires_at: sql`now() + make_interval(secs => ${KEY_TTL_SECONDS})`,
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .execute();
  }

  private async deleteKey(scope: IdempotencyScope): Promise<void> {
    await this.db
      .deleteFrom('idempotency_records')
      .where('account_id', '=', scope.accountId)
      .where('key', '=', scope.key!)
      .where('state', '=', 'pending')
      .execute();
  }

  private async deleteFingerprint(accountId: string, fingerprint: string): Promise<void> {
    await this.db
      .deleteFrom('request_fingerprints')
      .where('account_id', '=', accountId)
      .where('fingerprint', '=', fingerprint)
      .where('state', '=', 'pending')
      .execute();
  }
}
