// Following one submitted shot to its end, and fetching the video it made.
// followShot polls the provider until the shot completes or fails, within a time budget. Rate limits are waited
// out (Retry-After when given), provider outages and network errors are retried a few times in a row, and
// anything else (bad credentials, answers of the wrong shape) stops at once. When the budget runs out the
// provider request is cancelled, so an abandoned shot stops costing money. An aborted signal (a worker shutting
// down) does not cancel: the job keeps its SubmittedShot and its retry polls the same request again.
// downloadShot fetches the result through the URL guard (provider result URLs are untrusted like any other),
// bounded in size and time, and keeps it only if ffprobe finds a playable video in it.

import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { probeMedia, type MediaInfo } from '../../media/ffmpeg/probe.ts';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import {
  VideoProviderError,
  type ShotState,
  type SubmittedShot,
  type VideoModelProvider,
} from './video-model-provider.ts';

export type FinishedShotState = Extract<ShotState, { state: 'completed' | 'failed' }>;

export interface FollowShotOptions {
  /** Time between status polls; default 5 s. */
  pollIntervalMs?: number;
  /** The whole wait, from the first poll; default 20 min. */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** Called with each state that differs from the last one seen (the finished state included). */
  onState?: (state: ShotState) => void;
  /** Provider outages or network errors in a row tolerated before giving up; default 3. */
  maxTransientRetries?: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 5_000;
export const DEFAULT_MAX_WAIT_MS = 20 * 60_000;
const MAX_BACKOFF_MS = 60_000;

export class ShotTimeoutError extends Error {
  constructor(
    readonly shot: SubmittedShot,
    readonly waitedMs: number,
    /** Whether the provider accepted the cancellation of the abandoned request. */
    readonly cancelled: boolean,
    cancelError?: unknown,
  ) {
    const cancelNote = cancelled
      ? 'the provider request was cancelled'
      : `cancelling the provider request failed (${cancelError instanceof Error ? cancelError.message : String(cancelError)})`;
    super(
      `${shot.provider} shot ${shot.requestId} did not finish within ${Math.round(waitedMs / 1000)} s; ${cancelNote}`,
    );
    this.name = 'ShotTimeoutError';
  }
}

function sameState(a: ShotState | undefined, b: ShotState): boolean {
  if (!a || a.state !== b.state) return false;
  if (a.state === 'queued' && b.state === 'queued') return a.position === b.position;
  return a.state === 'running';
}

async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(Math.max(0, ms), undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw error;
  }
}

export async function followShot(
  provider: VideoModelProvider,
  submitted: SubmittedShot,
  options: FollowShotOptions = {},
): Promise<FinishedShotState> {
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const maxTransient = options.maxTransientRetries ?? 3;
  const { signal, onState } = options;
  const started = Date.now();
  const deadline = started + maxWaitMs;
  let last: ShotState | undefined;
  let transientFailures = 0;
  let rateLimits = 0;

  const timedOut = async (): Promise<never> => {
    try {
      await provider.cancel(submitted, AbortSignal.timeout(15_000));
    } catch (error) {
      throw new ShotTimeoutError(submitted, Date.now() - started, false, error);
    }
    throw new ShotTimeoutError(submitted, Date.now() - started, true);
  };

  for (;;) {
    if (signal?.aborted) throw signal.reason;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return timedOut();
    // One poll may not outlast the budget either.
    const budget = AbortSignal.timeout(remaining);
    const pollSignal = signal ? AbortSignal.any([signal, budget]) : budget;
    let state: ShotState;
    try {
      state = await provider.status(submitted, pollSignal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (budget.aborted || Date.now() >= deadline) return timedOut();
      if (error instanceof VideoProviderError && error.kind === 'rate_limited') {
        rateLimits++;
        const backoff = Math.min(MAX_BACKOFF_MS, pollIntervalMs * 2 ** rateLimits);
        const wait = error.retryAfterSec !== undefined ? error.retryAfterSec * 1000 : backoff;
        await sleep(Math.min(wait, deadline - Date.now()), signal);
        continue;
      }
      if (
        error instanceof VideoProviderError &&
        error.kind === 'unavailable' &&
        transientFailures < maxTransient
      ) {
        transientFailures++;
        await sleep(
          Math.min(pollIntervalMs * 2 ** (transientFailures - 1), MAX_BACKOFF_MS, deadline - Date.now()),
          signal,
        );
        continue;
      }
      throw error;
    }
    transientFailures = 0;
    rateLimits = 0;
    if (!sameState(last, state)) onState?.(state);
    last = state;
    if (state.state === 'completed' || state.state === 'failed') return state;
    await sleep(Math.min(pollIntervalMs, deadline - Date.now()), signal);
  }
}

/** The download worked but the file is not a playable video. */
export class ShotDownloadError extends Error {
  readonly reason = 'not_video';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShotDownloadError';
  }
}

export interface DownloadShotOptions {
  signal?: AbortSignal;
  /** Default 512 MiB: a 15 s 4K clip at a generous bitrate stays well below it. */
  maxBytes?: number;
  /** Default 10 min. */
  timeoutMs?: number;
}

export interface DownloadedShot {
  bytes: number;
  contentType: string | null;
  info: MediaInfo;
}

export const DEFAULT_SHOT_MAX_BYTES = 512 * 1024 * 1024;

export async function downloadShot(
  urlGuard: Pick<UrlGuard, 'download'>,
  videoUrl: string,
  destPath: string,
  options: DownloadShotOptions = {},
): Promise<DownloadedShot> {
  let fetched;
  try {
    fetched = await urlGuard.download(videoUrl, destPath, {
      maxBytes: options.maxBytes ?? DEFAULT_SHOT_MAX_BYTES,
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof UrlRejectedError) || error.reason === 'aborted') throw error;
    // Still a UrlRejectedError (same reason), worded so a job error says whose URL was refused.
    throw new UrlRejectedError(
      error.reason,
      `the provider's result video URL was refused: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  let info: MediaInfo;
  try {
    info = await probeMedia(destPath, { signal: options.signal, timeoutMs: 60_000 });
  } catch (error) {
    await rm(destPath, { force: true });
    if (options.signal?.aborted) throw options.signal.reason;
    throw new ShotDownloadError("the provider's result is not a media file ffprobe can read", {
      cause: error,
    });
  }
  if (!info.video || info.video.width <= 0 || info.video.height <= 0 || !(info.durationSec > 0)) {
    await rm(destPath, { force: true });
    throw new ShotDownloadError("the provider's result has no playable video stream");
  }
  return { bytes: fetched.bytes, contentType: fetched.contentType, info };
}
