// How every paid signals read is charged (the trends radar and breaking reads, brand recommendations; prices
// and billing in docs/signals.md): the Idempotency-Key claim, the work, then one transaction holding the
// ledger charge, any state the read changes and the answer stored under the key. Errors are free and a
// refusal (4xx) is stored under the key like an answer; sandbox keys get the same answer, free, changing
// nothing. The work runs before any charge, so nothing is ever taken for an answer that was not given.
import { sql } from 'kysely';
import type { Db, Tx } from '../platform/db/database.ts';
import { errorBody, successBody, type Meta } from '../platform/envelope.ts';
import { ApiError, errors } from '../platform/errors.ts';
import { chargeHeaders, type Answer, type Caller } from '../platform/generation/submit.ts';
import { validateIdempotencyKey, type Claim, type Idempotency } from '../platform/idempotency/idempotency.ts';
import { balanceOf, charge, chargeAlone } from '../platform/ledger/ledger.ts';
import type { Price } from '../platform/modes/mode.ts';
import { PRICE_TABLE, type FlatPricedOperation } from '../platform/pricing/price-table.ts';

/** A paid read as the catalogs (/tools, /usage) list it beside the modes: its price entry and its route. */
export interface PricedRead {
  operation: FlatPricedOperation;
  method: 'GET' | 'POST';
  path: string;
  title: string;
}

export interface PaidReadRequest {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  /**
   * 'required': a live call without a key is refused (spec 1 §4: paid live POSTs carry one);
   * 'recommended': a read without one simply runs (and is charged) again.
   */
  keyRule: 'required' | 'recommended';
  /** Scopes the key: the same key on two routes is two requests. */
  endpoint: string;
  /** What a retry with the same key is compared on: the parsed request, defaults applied. */
  request: unknown;
}

/** What the read's work produced: the answer's data and what it is charged at. */
export interface PaidReadResult {
  data: unknown;
  operation: FlatPricedOperation;
  /** The X-Api-Credits-Tool and -Tier values. */
  tool: string;
  tier: string;
  /** An answer with nothing in it is given free (credits_used 0, no ledger entry). */
  free?: boolean;
  /** Meta fields of this read, placed after credits_used and credits_remaining. */
  meta?: Record<string, unknown>;
  warnings?: string[];
  /**
   * State the read changes exactly when it is paid for (e.g. a brand's topic usage), written in the charge's
   * transaction; never run for sandbox keys or free answers.
   */
  commit?: (tx: Tx) => Promise<void>;
}

export function readPrice(result: PaidReadResult, sandbox: boolean): Price {
  const usdCents = sandbox || result.free ? 0 : PRICE_TABLE[result.operation].usdCents;
  return {
    usdCents,
    breakdown: [{ item: result.operation, usd_cents: usdCents, quantity: 1, unit: 'request' }],
    tool: result.tool,
    model: 'signals',
    tier: result.tier,
    engine: PRICE_TABLE[result.operation].engine,
  };
}

export class PaidReads {
  constructor(private readonly deps: { db: Db; idempotency: Idempotency }) {}

  /** 402 before costly work starts, for a live caller whose balance cannot cover `operation`. */
  async ensureAffordable(caller: Caller, operation: FlatPricedOperation): Promise<void> {
    if (caller.sandbox) return;
    const cents = PRICE_TABLE[operation].usdCents;
    const balance = await balanceOf(this.deps.db, caller.accountId);
    if (balance < cents) throw errors.insufficientCredits(cents, balance);
  }

  /** Runs `work` once per Idempotency-Key and charges its result; a replay answers the first answer. */
  async serve(request: PaidReadRequest, work: () => Promise<PaidReadResult>): Promise<Answer> {
    const { caller, requestId, idempotencyKey } = request;
    validateIdempotencyKey(idempotencyKey);
    if (request.keyRule === 'required' && !caller.sandbox && idempotencyKey === undefined)
      throw errors.idempotencyKeyRequired();
    let claim: Claim | undefined;
    if (idempotencyKey !== undefined) {
      const claimed = await this.deps.idempotency.claim({
        accountId: caller.accountId,
        endpoint: request.endpoint,
        key: idempotencyKey,
        body: request.request,
        repeatToken: undefined,
        identical: false,
      });
      if (claimed.kind === 'replay') return { ...claimed.answer, replay: claimed.match };
      claim = claimed.claim;
    }
    try {
      return await this.settle(caller, requestId, await work(), claim);
    } catch (error) {
      if (claim && error instanceof ApiError && error.status < 500 && error.code !== 'REQUEST_IN_PROGRESS') {
        const answer: Answer = {
          status: error.status,
          body: errorBody(error, { request_id: requestId }),
          headers: { ...error.headers },
          jobIds: [],
        };
        await claim.record(answer);
        return answer;
      }
      await claim?.release();
      throw error;
    }
  }

  private async settle(
    caller: Caller,
    requestId: string,
    result: PaidReadResult,
    claim: Claim | undefined,
  ): Promise<Answer> {
    const { db } = this.deps;
    const price = readPrice(result, caller.sandbox);
    const warnings = result.warnings ?? [];
    const answerFor = (balance: number): Answer => {
      const meta: Meta = {
        request_id: requestId,
        credits_used: price.usdCents,
        credits_remaining: balance,
        ...result.meta,
        ...(caller.sandbox ? { sandbox: true } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      };
      return {
        status: 200,
        body: successBody(result.data, meta),
        headers: chargeHeaders(price, 0),
        jobIds: [],
      };
    };

    if (caller.sandbox || result.free) {
      const answer = answerFor(await balanceOf(db, caller.accountId));
      await claim?.record(answer);
      return answer;
    }
    // Nothing else to write with the charge: one statement, holding the account row for no round trip.
    if (!claim && !result.commit && price.usdCents > 0)
      return answerFor(
        await chargeAlone(db, caller.accountId, price.usdCents, requestId, `${result.operation} read`),
      );
    return db.transaction().execute(async (tx) => {
      // A read's charge need not wait for its WAL flush while it holds the account row: lost in a crash, it
      // is lost together with the answer stored under its Idempotency-Key, and the read was simply free.
      await sql`SET LOCAL synchronous_commit = off`.execute(tx);
      const balance = await charge(
        tx,
        caller.accountId,
        price.usdCents,
        requestId,
        `${result.operation} read`,
      );
      await result.commit?.(tx);
      const answer = answerFor(balance);
      await claim?.accept(tx, answer);
      return answer;
    });
  }
}
