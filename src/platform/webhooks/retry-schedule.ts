// When a failed webhook attempt is tried again. The first attempt goes out at once; the retries follow the
// Standard Webhooks / Svix schedule (5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h), so a receiver that is
// down for a weekend-sized outage still gets its events: with the default 12 attempts the last one is made
// about 2.8 days after the first.

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const FIRST_RETRY_DELAYS_MS = [5 * SECOND, 300 * SECOND, 1800 * SECOND, 2 * HOUR, 5 * HOUR];
const LATER_RETRY_DELAY_MS = 10 * HOUR;
/** Up to this much is added to each delay, so retries after an outage do not all land together. */
const JITTER = 0.1;

export interface RetryPolicy {
  maxAttempts: number;
  /** Multiplies every delay (1 in production; tests compress the schedule). */
  retryDelayScale: number;
}

/** The wait before the next attempt once `attemptsMade` attempts have failed; undefined when it was the last. */
export function retryDelayMs(
  attemptsMade: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attemptsMade >= policy.maxAttempts) return undefined;
  const base = FIRST_RETRY_DELAYS_MS[attemptsMade - 1] ?? LATER_RETRY_DELAY_MS;
  return Math.round(base * policy.retryDelayScale * (1 + JITTER * random()));
}

/**
 * The wait of an attempt whose destination already has its cap of attempts in flight. It doubles with each
 * wait (0.5–1 s, 1–2 s, … up to 15–30 s) so a backlog for a receiver that hangs is re-checked ever more
 * rarely, while a busy but healthy receiver frees its slots within the first waits.
 */
export function destinationWaitMs(waitsSoFar: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30, 2 ** waitsSoFar) * SECOND;
  return Math.round(ceiling * (0.5 + random() / 2));
}
