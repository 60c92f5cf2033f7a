import { Backoff, sleep } from './backoff.ts';
import { isTransient, ReelsmithError } from './errors.ts';
import { isFinalStatus } from './job-status.ts';
import { followProgressStream, StreamError } from './progress-stream.ts';

/** The parts of a job record the wait reads. */
export interface WaitableJob {
  id: string;
  status: string;
  progress: { at: string; stage: string; message: string; percent: number }[];
}

/** A progress event, from the stream or from a poll: each event is reported once, in order. */
export interface JobProgress {
  status: string;
  stage: string;
  percent: number;
  message: string;
  at: string;
  via: 'stream' | 'poll';
}

export interface WaitOptions {
  onProgress?: (event: JobProgress) => void;
  /** Follow the receipt's `websocket_url` (default true). Without a receipt there is no stream: it polls. */
  stream?: boolean;
  /** Called when the stream cannot be followed to the end and polling takes over. */
  onStreamError?: (error: StreamError) => void;
  /** First delay between polls (default 1 s); grows ×1.5 while nothing changes. */
  pollIntervalMs?: number;
  /** Longest delay between polls (default 15 s, the polling rate the API asks for). */
  maxPollIntervalMs?: number;
  /** Stops waiting (the job goes on): pass `AbortSignal.timeout(ms)` for a deadline. */
  signal?: AbortSignal;
}

/** A receipt (what createVideo answers) or just a job id. */
export type WaitTarget = string | { job_id: string; websocket_url?: string | null | undefined };

/**
 * Resolves with the job record once the job reaches a final status (completed, partial_success, failed,
 * dead_lettered, cancelled): it does not throw for a failed job, read `status` and `error`. Progress comes
 * from the receipt's WebSocket stream; when it is refused or drops, polling GET /jobs/{id} continues from
 * the last event seen, with backoff, honouring Retry-After, and riding out network errors and 5xx.
 */
export async function waitForJob<J extends WaitableJob>(
  getJob: (jobId: string, signal?: AbortSignal) => Promise<J>,
  target: WaitTarget,
  options: WaitOptions = {},
): Promise<J> {
  const jobId = typeof target === 'string' ? target : target.job_id;
  const streamUrl = typeof target === 'string' ? undefined : target.websocket_url;
  const { onProgress, signal } = options;
  let seen = 0;

  if (streamUrl && options.stream !== false) {
    try {
      await followProgressStream(streamUrl, {
        signal,
        onMessage: (message) => {
          seen += 1;
          onProgress?.({
            status: message.status,
            stage: message.stage,
            percent: message.progress,
            message: message.message,
            at: message.at,
            via: 'stream',
          });
        },
      });
    } catch (error) {
      if (!(error instanceof StreamError)) throw error;
      options.onStreamError?.(error);
    }
  }

  const backoff = new Backoff(options.pollIntervalMs ?? 1_000, options.maxPollIntervalMs ?? 15_000);
  for (;;) {
    let job: J;
    try {
      job = await getJob(jobId, signal);
    } catch (error) {
      if (!isTransient(error) || signal?.aborted) throw error;
      const retryAfter = error instanceof ReelsmithError ? error.retryAfterSeconds : undefined;
      await sleep(retryAfter !== undefined ? retryAfter * 1000 : backoff.next(), signal);
      continue;
    }
    const fresh = job.progress.slice(seen);
    seen = Math.max(seen, job.progress.length);
    for (const event of fresh) onProgress?.({ ...event, status: job.status, via: 'poll' });
    if (isFinalStatus(job.status)) return job;
    if (fresh.length > 0) backoff.reset();
    await sleep(backoff.next(), signal);
  }
}
