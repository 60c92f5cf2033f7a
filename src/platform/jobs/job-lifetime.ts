// How long a job may run before it fails with PROCESS_TIMEOUT (and is refunded).

import type { Config } from '../config.ts';
import type { ModeDefinition } from '../modes/mode.ts';

/**
 * The most a mode may ask for one job (a 4-hour transcription on the local engine needs about half that).
 * The queue's own expiry sits past it, so no running job is ever handed to a second worker.
 */
export const LONGEST_JOB_LIFETIME_SECONDS = 6 * 3600;

/**
 * JOB_MAX_LIFETIME_SECONDS, or more when the mode says this request needs it (up to the longest allowed), or
 * less when the mode's spec caps its jobs (maxLifetimeSeconds).
 */
export function jobLifetimeSeconds(
  config: Pick<Config, 'jobs'>,
  mode: Pick<ModeDefinition, 'lifetimeSeconds' | 'maxLifetimeSeconds'>,
  request: unknown,
): number {
  const wanted = Math.min(mode.lifetimeSeconds?.(request) ?? 0, LONGEST_JOB_LIFETIME_SECONDS);
  const lifetime = Math.max(config.jobs.maxLifetimeSeconds, Math.ceil(wanted));
  return Math.min(lifetime, mode.maxLifetimeSeconds ?? lifetime);
}
