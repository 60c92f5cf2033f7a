// Runs one render the way the product runs it: the compiled render command (`npm run render`, build/cli/render.js)
// in its own plain Node process, so the measured memory and CPU are the product's, not this TypeScript-loaded
// benchmark's. Stage times come from the command's progress lines, per-stage memory from /proc while it runs;
// the render's own wall, CPU (with its ffmpeg and voice processes) and peak RSS come from its summary line.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
let built = false;

export interface StageTiming {
  stage: string;
  seconds: number;
  /** Highest resident memory of the render process seen while the stage ran. */
  rssPeakMb: number;
}

export interface ProductRender {
  /** From validation to the delivered files, as a running worker would spend it. */
  wallSec: number;
  /** CPU seconds of the render process and the processes it ran, over the same span. */
  cpuSec: number;
  /** The kernel's high-water mark of the render process's resident memory. */
  peakRssMb: number;
  /** Resident memory once the modules were loaded, before the first stage. */
  rssAtStartMb: number;
  stages: StageTiming[];
  summary: Record<string, unknown>;
}

function residentMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export async function renderWithProduct(options: {
  mode: string;
  body: unknown;
  /** Where the MP4 goes; the request file is written beside it. */
  out: string;
  seed: string;
  env: NodeJS.ProcessEnv;
}): Promise<ProductRender> {
  if (!built) {
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('scripts/build.mjs failed');
    built = true;
  }
  const requestFile = `${options.out}.request.json`;
  await writeFile(requestFile, JSON.stringify(options.body));
  const child = spawn(
    process.execPath,
    [
      join(root, 'build/cli/render.js'),
      requestFile,
      '--out',
      options.out,
      '--mode',
      options.mode,
      '--seed',
      options.seed,
    ],
    { cwd: root, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const starts: { stage: string; at: number; rssPeakMb: number }[] = [];
  let rssAtStartMb = 0;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr += text;
    for (const line of text.split('\n')) {
      const stage = /^\[\s*\d+%\] (\S+)/.exec(line)?.[1];
      if (!stage || starts.at(-1)?.stage === stage) continue;
      const rss = residentMb(child.pid!) ?? 0;
      if (starts.length === 0) rssAtStartMb = rss;
      starts.push({ stage, at: performance.now(), rssPeakMb: rss });
    }
  });
  const sampler = setInterval(() => {
    const current = starts.at(-1);
    const rss = residentMb(child.pid!);
    if (current && rss !== undefined) current.rssPeakMb = Math.max(current.rssPeakMb, rss);
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const end = performance.now();
  if (code !== 0) throw new Error(`the render command failed (exit ${code}):\n${stderr.slice(-4000)}`);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  return {
    wallSec: Number(summary.renderSec),
    cpuSec: Number(summary.cpuSec),
    peakRssMb: Number(summary.peakRssMb),
    rssAtStartMb,
    stages: starts.map(({ stage, at, rssPeakMb }, i) => ({
      stage,
      seconds: ((starts[i + 1]?.at ?? end) - at) / 1000,
      rssPeakMb,
    })),
    summary,
  };
}
