import type { TestService } from './test-service.ts';

/** A job's ledger entries, oldest first, as the database holds them. */
export async function jobLedger(
  service: TestService,
  jobId: string,
): Promise<{ kind: string; amount_cents: number }[]> {
  const { rows } = await service.runtime.database.pool.query(
    'SELECT kind, amount_cents FROM ledger_entries WHERE job_id = $1 ORDER BY id',
    [jobId],
  );
  return rows;
}
