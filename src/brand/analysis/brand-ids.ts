// A brand analysis is named after the job that makes it: the receipt, the job and its callback all know the
// brand_id without storing a second mapping, and the id is fixed before the job's transaction commits.

const JOB_PREFIX = 'job_';
const BRAND_PREFIX = 'brand_';

export function brandIdOfJob(jobId: string): string {
  if (!jobId.startsWith(JOB_PREFIX)) throw new Error(`not a job id: ${jobId}`);
  return BRAND_PREFIX + jobId.slice(JOB_PREFIX.length);
}
