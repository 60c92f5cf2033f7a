/** Statuses after which a job never changes again (a publish job may also end as partial_success). */
export const FINAL_STATUSES = [
  'completed',
  'partial_success',
  'failed',
  'dead_lettered',
  'cancelled',
] as const;

export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isFinalStatus(status: string): status is FinalStatus {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}
