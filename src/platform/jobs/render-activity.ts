import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often work that waits for renders to end looks again (renders of other processes are only seen so). */
const IDLE_POLL_MS = 500;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Which renders run on this machine: this process's jobs, and those of every worker process sharing the data
 * directory (each running job leaves an empty marker file named `<pid>-<deadline ms>-<jobId>`). Work nobody
 * waits for (the background library) asks it before each step, so the first videos get the CPU.
 */
export class RenderActivity {
  private running = 0;

  constructor(private readonly dir: string) {}

  /** Marks a job as rendering until the returned function is called. */
  async begin(jobId: string, deadline: Date): Promise<() => Promise<void>> {
    this.running++;
    const marker = join(this.dir, `${process.pid}-${deadline.getTime()}-${jobId}`);
    // A marker that cannot be written only hides this render from other processes.
    const written = await mkdir(this.dir, { recursive: true })
      .then(() => writeFile(marker, ''))
      .then(
        () => true,
        () => false,
      );
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      this.running--;
      if (written) await rm(marker, { force: true }).catch(() => undefined);
    };
  }

  /** True while a job renders here or in another live process of this data directory. */
  async busy(): Promise<boolean> {
    if (this.running > 0) return true;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const [pid, deadline] = name.split('-', 2).map(Number);
      // Past its deadline a job is stopped wherever it runs; a marker of a dead process (or of this one
      // while it counts no render: left by an earlier process with the same pid) is stale.
      const live = pid !== process.pid && alive(pid!) && deadline! > Date.now();
      if (live) return true;
      await rm(join(this.dir, name), { force: true }).catch(() => undefined);
    }
    return false;
  }

  /** Resolves once no render runs; rejects when `signal` aborts. */
  async idle(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    while (await this.busy()) await sleep(IDLE_POLL_MS, undefined, { signal });
  }
}
