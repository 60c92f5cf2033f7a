import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { CliError, EXIT } from './exit-codes.ts';

/** What src/cli/render.ts prints on stdout when it has rendered (its JSON summary line). */
export interface LocalRenderSummary {
  out: string;
  poster?: string;
  captions?: string;
  durationSec?: number;
  title?: string;
  renderSec?: number;
  [field: string]: unknown;
}

export interface LocalProgress {
  percent: number;
  stage: string;
  message: string;
}

// The client sits in <repo>/client/{src,dist}/cli/: the repository is three folders up from this module.
const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const RENDER_SOURCE = join(REPO_ROOT, 'src', 'cli', 'render.ts');
// `npm run render`'s own steps: bring the compiled build/ up to date, then run it with plain Node.
const BUILD_SCRIPT = join(REPO_ROOT, 'scripts', 'build.mjs');
const RENDER_CLI = join(REPO_ROOT, 'build', 'cli', 'render.js');

/** `[ 45%] compose  Rendering the video.`, the progress lines of src/cli/render.ts. */
const PROGRESS_LINE = /^\[\s*(\d+)%\] (\S+)\s+(.*)$/;

/** --local needs the repository around the client: its render command and the system tools beside it. */
export function requireRepository(): void {
  if (!existsSync(RENDER_SOURCE) || !existsSync(BUILD_SCRIPT))
    throw new CliError(
      `--local renders with the Reelsmith repository's pipeline, which is not here (${RENDER_SOURCE} is missing): ` +
        'run it inside a checkout of the repository, or drop --local and use a server.',
      EXIT.usage,
    );
}

/**
 * Renders a body with the repository's own pipeline (`npm run render`: build/cli/render.js), without a server
 * or a key: only inside a checkout of the Reelsmith repository, where that command and its system tools live.
 */
export async function renderLocally(
  body: Record<string, unknown>,
  options: {
    out: string;
    all: boolean;
    onProgress(step: LocalProgress): void;
    onOutput(line: string): void;
    signal?: AbortSignal;
  },
): Promise<LocalRenderSummary> {
  requireRepository();
  const build = spawnSync(process.execPath, [BUILD_SCRIPT], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0)
    throw new CliError(
      `--local could not build the repository's pipeline: ${build.stderr.trim()}`,
      EXIT.failed,
    );
  const args = [RENDER_CLI, '-', '--out', options.out, ...(options.all ? [] : ['--video-only'])];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.signal ? { signal: options.signal, killSignal: 'SIGINT' as const } : {}),
  });
  child.stdin.end(JSON.stringify(body));
  let stdout = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = PROGRESS_LINE.exec(line);
      if (match) options.onProgress({ percent: Number(match[1]), stage: match[2]!, message: match[3]! });
      else if (line.trim()) options.onOutput(line.replace(/^render: /, ''));
    }
  });
  const code = await new Promise<number | null>((resolveExit, reject) => {
    child.once('error', (error) => (options.signal?.aborted ? resolveExit(EXIT.interrupted) : reject(error)));
    child.once('close', (exitCode) => resolveExit(exitCode));
  });
  if (pending.trim()) options.onOutput(pending.replace(/^render: /, ''));
  if (code === 0) return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LocalRenderSummary;
  if (options.signal?.aborted || code === EXIT.interrupted)
    throw new CliError('local render interrupted', EXIT.interrupted);
  throw new CliError('the local render failed (see above)', code === 2 ? EXIT.usage : EXIT.failed);
}
