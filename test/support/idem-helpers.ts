import { randomUUID } from 'node:crypto';
import type { CreatedAccount } from '../../src/platform/accounts/accounts.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { topUp } from '../../src/platform/ledger/ledger.ts';
import type { TestResponse, TestService } from './test-service.ts';

// Per-account clients for the idempotency, dry-run and batch tests: each test works on its own account so
// balances, job counts and the 5-render limit of one test never leak into another.

export const GENERATE_PATH = '/api/v1/generate-and-post';

export function uniqueKey(prefix = 'idem'): string {
  return `${prefix}-${randomUUID()}`;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
}

export interface AccountClient {
  account: CreatedAccount;
  /** Calls with this account's live key unless `key` says otherwise. */
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  /** POST /generate-and-post; `idempotencyKey: null` sends no Idempotency-Key header. */
  generate(
    body: unknown,
    idempotencyKey: string | null,
    options?: { headers?: Record<string, string>; key?: string | null },
  ): Promise<TestResponse>;
  balance(): Promise<number>;
  /** Jobs of this account, sandbox placeholders included. */
  jobIds(): Promise<string[]>;
  /** Id and status of every job of this account, oldest first. */
  jobStatuses(): Promise<{ id: string; status: string }[]>;
  /** Ledger charge entries of this account. */
  chargeCount(): Promise<number>;
  topUp(cents: number): Promise<void>;
}

export function accountClient(service: TestService, account: CreatedAccount): AccountClient {
  const db: Db = service.runtime.database.db;
  const call = (method: string, path: string, options: CallOptions = {}) =>
    service.call(method, path, {
      ...options,
      key: options.key === undefined ? account.live_key : options.key,
    });
  return {
    account,
    call,
    generate: (body, idempotencyKey, options = {}) =>
      call('POST', GENERATE_PATH, {
        body,
        key: options.key,
        headers: {
          ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
          ...options.headers,
        },
      }),
    balance: async () => {
      const usage = await call('GET', '/api/v1/usage');
      if (usage.status !== 200) throw new Error(`GET /usage answered ${usage.status}: ${usage.text}`);
      return usage.body.data.balance_usd_cents as number;
    },
    jobIds: async () => {
      const rows = await db
        .selectFrom('jobs')
        .select('id')
        .where('account_id', '=', account.account_id)
        .orderBy('created_at')
        .execute();
      return rows.map((row) => row.id);
    },
    jobStatuses: async () =>
      db
        .selectFrom('jobs')
        .select(['id', 'status'])
        .where('account_id', '=', account.account_id)
        .orderBy('created_at')
        .execute(),
    chargeCount: async () => {
      const row = await db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', account.account_id)
        .where('kind', '=', 'charge')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    topUp: async (cents) => {
      await db.transaction().execute((tx) => topUp(tx, account.account_id, cents, 'test top-up'));
    },
  };
}

/** A fresh funded account of the service with its client. */
export async function newClient(service: TestService, balanceCents = 100_000): Promise<AccountClient> {
  return accountClient(service, await service.newAccount(balanceCents));
}

/** The parts of an answer a replay must reproduce: status, the body without its meta, and the job id header. */
export function replayable(response: TestResponse): {
  status: number;
  body: Record<string, unknown>;
  jobId: string | null;
} {
  const body = { ...(response.body as Record<string, unknown>) };
  delete body.meta;
  return { status: response.status, body, jobId: response.headers.get('x-job-id') };
}
