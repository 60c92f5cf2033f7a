// The job status machine (spec 1 §3.1). Nothing else in the code base decides which status may follow which.

export const JOB_STATUSES = [
  'queued',
  'leased',
  'running',
  'uploading',
  'completed',
  'failed',
  'dead_lettered',
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const FINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'dead_lettered', 'cancelled'];
export const OPEN_STATUSES: readonly JobStatus[] = ['queued', 'leased', 'running', 'uploading'];
/** A job is "finishing" once its files are being stored; from then on it can no longer be cancelled. */
export const CANCELLABLE_STATUSES: readonly JobStatus[] = ['queued', 'leased', 'running'];
/** DELETE /jobs/{id} cancels only before the video starts rendering. */
export const DELETABLE_STATUSES: readonly JobStatus[] = ['queued', 'leased'];
export const ACTIVE_RENDER_STATUSES: readonly JobStatus[] = ['leased', 'running', 'uploading'];

const NEXT: Record<JobStatus, readonly JobStatus[]> = {
  queued: ['leased', 'cancelled', 'failed', 'dead_lettered'],
  // leased/running/uploading → leased: a retry after a crashed or failed attempt takes the job again;
  // → queued: an attempt failed with a retryable error and waits for its next try.
  leased: ['running', 'leased', 'queued', 'cancelled', 'failed', 'dead_lettered'],
  running: ['uploading', 'leased', 'queued', 'cancelled', 'failed', 'dead_lettered'],
  uploading: ['completed', 'leased', 'queued', 'failed', 'dead_lettered'],
  completed: [],
  failed: [],
  dead_lettered: [],
  cancelled: [],
};

export function isFinal(status: JobStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return NEXT[from].includes(to);
}

/** The statuses a job may be in for `to` to be legal next: used as the guard of every status UPDATE. */
export function legalSources(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => canTransition(from, to));
}

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value);
}
