// Where jobs and requests keep their files on disk: one folder per job, and a staging folder per request
// for files fetched while validating (moved into the job's folder when the request is accepted).
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { randomToken } from '../ids.ts';

export function jobWorkDir(config: Pick<Config, 'dataDir'>, jobId: string): string {
  return join(config.dataDir, 'work', jobId);
}

/** A fresh staging folder under DATA_DIR: the work folders' file system, so adopting it is a rename. */
export function newStagingDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'staging', randomToken(16));
}

/**
 * Removes staging folders older than `maxAgeMs`: those of requests whose API process died mid-validation
 * (a live request never takes that long to validate). Returns how many were removed.
 */
export async function sweepStaleStaging(
  config: Pick<Config, 'dataDir'>,
  maxAgeMs: number,
  now: number = Date.now(),
): Promise<number> {
  const root = join(config.dataDir, 'staging');
  const names = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const path = join(root, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > maxAgeMs) {
      await rm(path, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
