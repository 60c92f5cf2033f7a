// Free disk space where jobs write (their work folders and, with the local store, finished media), and
// recognizing a write that failed because that space ran out.
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';

const MB = 1024 * 1024;

export interface DiskReport {
  ok: boolean;
  /** Free megabytes on the fullest of the watched folders' file systems. */
  free_mb: number;
  min_free_mb: number;
  /** The folder with the least free space. */
  path: string;
}

/** Free MB on the file system holding `path` (or its nearest existing parent: folders are made on first use). */
export async function freeMegabytes(path: string): Promise<number> {
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      const info = await statfs(dir);
      return Math.floor((info.bavail * info.bsize) / MB);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
    }
  }
}

/**
 * Watches the work folders, the local media folder and the system temp folder (some render stages write there),
 * any of which may be its own mount, against MIN_FREE_DISK_MB.
 */
export class DiskGuard {
  private readonly paths: string[];

  constructor(private readonly config: Pick<Config, 'dataDir' | 'mediaDir' | 'minFreeDiskMb'>) {
    this.paths = [join(config.dataDir, 'work'), config.mediaDir, tmpdir()];
  }

  async report(): Promise<DiskReport> {
    let worst = { free: Number.POSITIVE_INFINITY, path: this.paths[0]! };
    for (const path of this.paths) {
      const free = await freeMegabytes(path);
      if (free < worst.free) worst = { free, path };
    }
    const min = this.config.minFreeDiskMb;
    return { ok: min === 0 || worst.free >= min, free_mb: worst.free, min_free_mb: min, path: worst.path };
  }

  /** False while a heavy job should not start here. */
  async hasRoom(): Promise<boolean> {
    if (this.config.minFreeDiskMb === 0) return true;
    return (await this.report()).ok;
  }
}

const NO_SPACE = /ENOSPC|No space left on device/;

/** Whether `error` (or anything it wraps, e.g. ffmpeg's stderr in a ProcessError) says the disk was full. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e === 'string') return NO_SPACE.test(e);
    if (typeof e !== 'object') return false;
    const { code, message, stderrTail } = e as { code?: unknown; message?: unknown; stderrTail?: unknown };
    if (code === 'ENOSPC') return true;
    if (typeof message === 'string' && NO_SPACE.test(message)) return true;
    if (typeof stderrTail === 'string' && NO_SPACE.test(stderrTail)) return true;
  }
  return false;
}
