import { Reelsmith } from '../client.ts';
import type { Job } from '../types.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { usd } from './format.ts';
import { apiKey, serverUrl, type ConnectionFlags } from './settings.ts';

export interface JobsFlags extends ConnectionFlags {
  limit?: string | undefined;
  cursor?: string | undefined;
  json: boolean;
}

const write = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `reelsmith jobs`: the account's videos, newest first, from the library (GET /b2b/library/videos; the API has
 * no list of all jobs, and transcriptions, brand analyses and posts make no video). `reelsmith jobs JOB_ID`:
 * one job of any kind with its progress and links.
 */
export async function jobsCommand(jobId: string | undefined, flags: JobsFlags): Promise<void> {
  const client = new Reelsmith({
    baseUrl: serverUrl(flags, process.env),
    apiKey: apiKey(flags, process.env),
  });
  if (jobId) {
    const job = await client.getJob(jobId);
    if (flags.json) write(JSON.stringify(job));
    else showJob(job);
    return;
  }
  const limit = flags.limit === undefined ? undefined : Number(flags.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw new CliError(`--limit must be a whole number from 1 to 100, got "${flags.limit}"`, EXIT.usage);
  const page = await client.listVideos({
    ...(limit !== undefined ? { limit } : {}),
    ...(flags.cursor ? { cursor: flags.cursor } : {}),
  });
  if (flags.json) {
    write(JSON.stringify(page));
    return;
  }
  if (page.items.length === 0) write('No videos yet.');
  for (const video of page.items)
    write(
      [
        video.job_id.padEnd(26),
        video.status.padEnd(10),
        video.operation.padEnd(13),
        video.created_at.slice(0, 19).replace('T', ' '),
        video.metadata.title,
      ].join('  '),
    );
  if (page.next_cursor) write(`More: reelsmith jobs --cursor ${page.next_cursor}`);
}

function showJob(job: Job): void {
  const last = job.progress.at(-1);
  write(
    `${job.id}  ${job.status}  ${job.operation}  ${usd(job.price_usd_cents)}${job.sandbox ? '  (sandbox)' : ''}`,
  );
  write(`  created  ${job.createdAt}`);
  if (last) write(`  progress ${Math.round(last.percent)}%  ${last.stage}  ${last.message}`);
  if (job.error) write(`  error    ${job.error.code}: ${job.error.message}`);
  const { artifacts } = job;
  if (artifacts.title) write(`  title    ${artifacts.title}`);
  if (artifacts.videoUrl) write(`  video    ${artifacts.videoUrl}`);
  if (artifacts.thumbnailUrl) write(`  poster   ${artifacts.thumbnailUrl}`);
  for (const file of artifacts.output_files ?? []) write(`  ${file.format.padEnd(8)} ${file.url}`);
}
