// GET /api/v1/ready: whether this process should get traffic now. Liveness (GET /health) only says the
// process answers; readiness also checks what a request or a job needs, and fails first while shutting down.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { runProcess } from '../../media/process/run-process.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { randomToken } from '../ids.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { DiskGuard } from './disk-space.ts';

/** A check that has not answered by then counts as failed (a hung database must not hang the probe). */
const CHECK_TIMEOUT_MS = 5000;
/** ffmpeg's presence is looked up at most this often: probes come every few seconds. */
const FFMPEG_RECHECK_MS = 60_000;

export interface CheckResult {
  ok: boolean;
  error?: string;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  ready: boolean;
  /** Names of the failed checks, in the order of `checks`. */
  failing: string[];
  checks: Record<string, CheckResult>;
}

function withTimeout(name: string, check: Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `${name} did not answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([
    check.catch((error: unknown) => ({ ok: false, error: (error as Error).message ?? String(error) })),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

export class Readiness {
  private draining = false;
  private ffmpegSeen: { at: number; result: CheckResult } | undefined;

  constructor(
    private readonly deps: {
      config: Pick<Config, 'dataDir'>;
      db: Db;
      store: MediaStore;
      disk: DiskGuard;
    },
  ) {}

  /** From now on readiness fails (`shutting_down`): the process is stopping and takes no new traffic. */
  drain(): void {
    this.draining = true;
  }

  async check(): Promise<ReadinessReport> {
    const checks: Record<string, CheckResult> = {};
    if (this.draining)
      checks.shutting_down = { ok: false, error: 'the process received SIGTERM and is stopping' };
    const [database, store, ffmpeg, disk] = await Promise.all([
      withTimeout('database', this.database()),
      withTimeout('store', this.storeProbe()),
      withTimeout('ffmpeg', this.ffmpeg()),
      withTimeout('disk', this.disk()),
    ]);
    Object.assign(checks, { database, store, ffmpeg, disk });
    const failing = Object.entries(checks)
      .filter(([, result]) => !result.ok)
      .map(([name]) => name);
    return { ready: failing.length === 0, failing, checks };
  }

  private async database(): Promise<CheckResult> {
    await sql`SELECT 1`.execute(this.deps.db);
    return { ok: true };
  }

  /** Writes, reads back and deletes a small object through the media store every process uses. */
  private async storeProbe(): Promise<CheckResult> {
    const { store, config } = this.deps;
    const token = randomToken(12);
    const content = `readiness probe ${token}\n`;
    const dir = join(config.dataDir, 'run');
    const source = join(dir, `ready-probe-${token}`);
    const key = `health/probe-${token}.txt`;
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(source, content);
      const { bytes } = await store.put(key, source);
      if (bytes !== Buffer.byteLength(content))
        return { ok: false, error: `stored ${bytes} bytes of ${content.length}` };
      if (!(await store.exists(key))) return { ok: false, error: 'the stored probe is not found' };
      const path = await store.fetchToLocal(key);
      if (!path || (await readFile(path, 'utf8')) !== content)
        return { ok: false, error: 'the stored probe reads back different bytes' };
      return { ok: true };
    } finally {
      await rm(source, { force: true });
      await store.remove(key);
    }
  }

  private async ffmpeg(): Promise<CheckResult> {
    const seen = this.ffmpegSeen;
    if (seen?.result.ok && Date.now() - seen.at < FFMPEG_RECHECK_MS) return seen.result;
    const result: CheckResult = await runProcess('ffmpeg', ['-version'], {
      timeoutMs: CHECK_TIMEOUT_MS,
    }).then(
      () => ({ ok: true }),
      (error: unknown) => ({ ok: false, error: `ffmpeg cannot run: ${(error as Error).message}` }),
    );
    this.ffmpegSeen = { at: Date.now(), result };
    return result;
  }

  private async disk(): Promise<CheckResult> {
    const report = await this.deps.disk.report();
    return report.ok
      ? { ...report }
      : {
          ...report,
          error: `${report.free_mb} MB free under ${report.path}, below MIN_FREE_DISK_MB=${report.min_free_mb}: heavy jobs wait`,
        };
  }
}
