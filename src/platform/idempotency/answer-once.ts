import { ApiError } from '../errors.ts';
import {
  type Idempotency,
  type ReplayMatch,
  type StoredAnswer,
  validateIdempotencyKey,
} from './idempotency.ts';

export interface OnceScope {
  accountId: string;
  /** Names the route, so one key used on two routes stays two requests. */
  endpoint: string;
  key: string | undefined;
  body: unknown;
}

/**
 * Answers a request that creates no job once per Idempotency-Key (kits, hooks, paid reads, stock clips): the
 * same key and body get the stored answer; a refusal (a 4xx ApiError) is an answer too, built by `refusal` and
 * stored; a server error forgets the key, so a retry runs again. Without a key `run` simply runs, and its
 * errors reach the error handler.
 */
export async function answerOnce<A extends StoredAnswer>(
  idempotency: Idempotency,
  scope: OnceScope,
  run: () => Promise<A>,
  refusal: (error: ApiError) => A,
): Promise<A | (StoredAnswer & { replay: ReplayMatch })> {
  validateIdempotencyKey(scope.key);
  if (scope.key === undefined) return run();
  const claimed = await idempotency.claim({ ...scope, repeatToken: undefined, identical: false });
  if (claimed.kind === 'replay') return { ...claimed.answer, replay: claimed.match };
  let answer: A;
  try {
    answer = await run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500 || error.code === 'REQUEST_IN_PROGRESS') {
      await claimed.claim.release();
      throw error;
    }
    answer = refusal(error);
  }
  await claimed.claim.record(answer);
  return answer;
}
