import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { productModes } from '../modes/index.ts';
import { brandSchema } from '../modes/shared/field-schemas.ts';
import { loadConfig, type Config } from '../platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.ts';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres.ts';
import { migrate } from '../platform/db/migrate.ts';
import { ApiError, JobFailure } from '../platform/errors.ts';
import {
  fieldIssues,
  invalidInputError,
  parseGenerateRequest,
} from '../platform/generation/parse-request.ts';
import { createLogger } from '../platform/logger.ts';
import type { JobOutput, ModeDefinition, PipelineServices, RequestEstimate } from '../platform/modes/mode.ts';
import { UrlGuard } from '../platform/net/url-guard.ts';
import { LocalMediaStore } from '../platform/storage/media-store.ts';

// `npm run render -- request.json --out video.mp4`: the pipeline of POST /generate-and-post without the
// HTTP server, the queue or an account. The body is validated exactly as the API validates it, the stock
// mode renders it in a temporary work folder, and the finished files are copied next to --out.

const USAGE = `Usage: npm run render -- REQUEST.json [--out VIDEO.mp4] [--mode MODE] [--video-only] [--brand-file BRAND.json]

Renders the body of POST /api/v1/generate-and-post (a JSON file, or - for standard input) into a
finished vertical video, without the server. Writes VIDEO.mp4, plus VIDEO.jpg (poster) and VIDEO.srt
(captions) beside it unless --video-only. --out defaults to REQUEST.mp4 next to the request file.

  --out PATH           where the MP4 goes (its folder is created)
  --mode MODE          the generation mode whose body REQUEST.json is (default stock; also e.g.
                       text_to_video, image_to_video, magic, motivational, article, news)
  --video-only         write only the MP4
  --brand-file PATH    a JSON brand ({"name", "accent_color", "logo_url", ...}) used as the account brand
                       when the request sends none
  --seed TEXT          seeds the script, footage and music choices as a job id does (default: random)
  --help               this text

Progress goes to stderr; one JSON summary line goes to stdout, with the render's wall time, CPU seconds
(this process and the ffmpeg and voice processes it ran) and peak memory. The stock library uses DATABASE_URL when
set, else the embedded PostgreSQL under DATA_DIR; footage and music are generated on first need under
LIBRARY_DIR (default DATA_DIR/library). RENDER_PRESET sets the x264 preset (default veryfast).

Exit codes: 0 rendered, 1 render failed, 2 bad usage or invalid request, 130 interrupted.`;

class UsageError extends Error {}

/** The database the stock library reads: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (as admin does). */
export async function openRenderDatabase(
  config: Config,
): Promise<{ database: DatabaseHandle; close: () => Promise<void> }> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  const database = openDatabase(config.databaseUrl ?? embedded!.connectionString, { max: 4 });
  try {
    await migrate(database.pool);
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }
  return {
    database,
    close: async () => {
      await database.close();
      await embedded?.stop();
    },
  };
}

/** A mode as the server registers it (src/modes/index.ts), plus the library warm-up the modes offer. */
export function buildMode(config: Config, database: DatabaseHandle, log: Logger, name = 'stock') {
  const setup = productModes({
    config,
    db: database.db,
    log,
    urlGuard: new UrlGuard({ allowLoopback: config.allowLoopbackUrls }),
  });
  const mode = setup.modes.find((m) => m.name === name);
  if (!mode) throw new UsageError(`no mode "${name}"; modes: ${setup.modes.map((m) => m.name).join(', ')}`);
  return { mode, warmLibrary: setup.background };
}

/** CPU seconds of this process and of the child processes it has waited for (Linux /proc). */
function cpuSecondsWithChildren(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

/** Services of a pipeline run outside the server: no account, so the account brand is the --brand-file one. */
export function cliServices(
  config: Config,
  database: DatabaseHandle,
  workDir: string,
  brand: Record<string, unknown> | null,
): PipelineServices {
  return {
    config,
    db: database.db,
    urlGuard: new UrlGuard({ allowLoopback: config.allowLoopbackUrls }),
    // Nothing is stored or signed by a local render; the store exists because pipelines may stage files in it.
    store: new LocalMediaStore(join(workDir, 'media'), config.publicBaseUrl, randomBytes(32).toString('hex')),
    accountBrand: async () => brand,
  };
}

/** Reads a brand file and validates it like a request's "brand" field. */
export async function readBrandFile(path: string): Promise<Record<string, unknown>> {
  const parsed = brandSchema.safeParse(await readJson(path, 'brand-file'));
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error, 'brand-file.'));
  return parsed.data;
}

async function readJson(path: string, field: string): Promise<unknown> {
  const text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidInputError([{ field, message: `is not valid JSON: ${(error as Error).message}` }]);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface ProgressStep {
  stage: string;
  percent: number;
  message: string;
}

export interface PreparedRender {
  mode: ModeDefinition;
  request: unknown;
  dryRun: boolean;
  /** Deprecated aliases folded, and platform options that mean nothing to a local render. */
  warnings: string[];
  estimate: RequestEstimate;
}

/** Validates the body as the API does: aliases, platform fields, the mode's schema, then the mode's own checks. */
export async function prepareRender(
  mode: ModeDefinition,
  body: unknown,
  services: PipelineServices,
): Promise<PreparedRender> {
  const parsed = parseGenerateRequest(mode, body, services.urlGuard);
  // Validation may refine the request (a brand kit, facts of a fetched image): the refined one is what renders.
  const request =
    (await mode.validate?.(parsed.request, { ...services, accountId: 'cli' })) ?? parsed.request;
  const { options } = parsed;
  const ignored = [
    ...(options.webhookUrl ? ['webhook_url'] : []),
    ...(options.privateDelivery ? ['delivery.visibility'] : []),
    ...(options.agentRunId ? ['agent_run_id'] : []),
  ];
  return {
    mode,
    request,
    dryRun: options.dryRun,
    warnings: [
      ...parsed.warnings,
      ...ignored.map((f) => `"${f}" applies to the API only; a local render ignores it.`),
    ],
    estimate: mode.estimate(request),
  };
}

export interface RunOptions {
  services: PipelineServices;
  workDir: string;
  signal: AbortSignal;
  log: Logger;
  /** Seeds the script, footage and music choices, as a job id does on the server. */
  jobId?: string;
  onProgress(step: ProgressStep): void;
}

/** Runs the mode's pipeline on a validated request, as the worker does for a job. */
export async function runRender(prepared: PreparedRender, options: RunOptions): Promise<JobOutput> {
  const id = options.jobId ?? `cli_${randomUUID()}`;
  const output = await prepared.mode.run({
    job: { id, accountId: 'cli', videoId: id, attempt: 1 },
    request: prepared.request,
    workDir: options.workDir,
    signal: options.signal,
    log: options.log,
    services: options.services,
    progress: async (stage, percent, message) => options.onProgress({ stage, percent, message }),
  });
  options.signal.throwIfAborted();
  return output;
}

/** `[ 45%] compose  Rendering the video.` */
export function formatProgress(step: ProgressStep): string {
  return `[${String(Math.round(step.percent)).padStart(3)}%] ${step.stage.padEnd(8)} ${step.message}`;
}

/** Where the finished files go: the video at `out`, the poster and SRT captions beside it with its basename. */
export function deliveryPlan(
  output: JobOutput,
  out: string,
  videoOnly: boolean,
): { from: string; to: string; role: string }[] {
  const stem = join(dirname(out), basename(out, extname(out)));
  const plan: { from: string; to: string; role: string }[] = [];
  const video = output.files.find((f) => f.role === 'video');
  if (!video) throw new Error('the pipeline produced no video');
  plan.push({ from: video.path, to: out, role: 'video' });
  if (videoOnly) return plan;
  const poster = output.files.find((f) => f.role === 'thumbnail');
  if (poster) plan.push({ from: poster.path, to: `${stem}.jpg`, role: 'poster' });
  const srt = output.files.find((f) => f.role === 'subtitle' && f.path.endsWith('.srt'));
  if (srt) plan.push({ from: srt.path, to: `${stem}.srt`, role: 'captions' });
  return plan;
}

export async function deliverFiles(
  output: JobOutput,
  out: string,
  videoOnly: boolean,
): Promise<Record<string, string>> {
  await mkdir(dirname(out), { recursive: true });
  const written: Record<string, string> = {};
  for (const { from, to, role } of deliveryPlan(output, out, videoOnly)) {
    await copyFile(from, to);
    written[role] = to;
  }
  return written;
}

function defaultOut(requestPath: string): string {
  if (requestPath === '-')
    throw new UsageError('--out is required when the request comes from standard input');
  return join(dirname(requestPath), `${basename(requestPath, extname(requestPath))}.mp4`);
}

function exitCodeOf(error: unknown, interrupted: boolean): number {
  if (interrupted) return 130;
  if (error instanceof UsageError) return 2;
  if (error instanceof ApiError) return error.status < 500 ? 2 : 1;
  return 1;
}

async function main(controller: AbortController): Promise<Record<string, unknown>> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      'video-only': { type: 'boolean', default: false },
      'brand-file': { type: 'string' },
      mode: { type: 'string', default: 'stock' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'no request file given' : 'give exactly one request file',
    );
  const requestPath = positionals[0]!;
  const out = resolve(values.out ?? defaultOut(requestPath));

  const config = loadConfig();
  const log = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', 'stderr');
  const body = await readJson(requestPath, '(body)');
  const brand = values['brand-file'] ? await readBrandFile(values['brand-file']) : null;

  const { database, close } = await openRenderDatabase(config);
  const workDir = await mkdtemp(join(tmpdir(), 'reelsmith-render-'));
  try {
    const { mode } = buildMode(config, database, log, values.mode);
    // The render's own cost, as a running worker would pay it: from validation to the delivered files.
    const started = performance.now();
    const cpuStarted = cpuSecondsWithChildren();
    const services = cliServices(config, database, workDir, brand);
    const prepared = await prepareRender(mode, body, services);
    for (const warning of prepared.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (prepared.dryRun) return { dry_run: true, estimate: prepared.estimate, warnings: prepared.warnings };
    const output = await runRender(prepared, {
      services,
      workDir,
      signal: controller.signal,
      log,
      ...(values.seed ? { jobId: values.seed } : {}),
      onProgress: (step) => process.stderr.write(`${formatProgress(step)}\n`),
    });
    const files = await deliverFiles(output, out, values['video-only']);
    process.stderr.write(`[100%] done     ${out}\n`);
    const { durationSec, title, description, ...artifacts } = output.artifacts;
    return {
      out: files.video,
      ...(files.poster ? { poster: files.poster } : {}),
      ...(files.captions ? { captions: files.captions } : {}),
      durationSec,
      title,
      description,
      ...artifacts,
      warnings: prepared.warnings,
      renderSec: Math.round((performance.now() - started) / 100) / 10,
      cpuSec: Math.round((cpuSecondsWithChildren() - cpuStarted) * 10) / 10,
      // The kernel's high-water mark of this process's resident memory (KiB), child processes not included.
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await rm(workDir, { recursive: true, force: true }).catch(() => {});
    await close().catch(() => {});
  }
}

function run(): void {
  const controller = new AbortController();
  let interrupted = false;
  process.on('SIGINT', () => {
    // A second Ctrl-C leaves at once, without cleaning up.
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('render: interrupted, stopping…\n');
    controller.abort(new Error('interrupted'));
  });
  main(controller).then(
    (summary) => {
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      const code = exitCodeOf(error, interrupted);
      if (interrupted) {
        process.stderr.write('render: interrupted\n');
      } else if (error instanceof UsageError) {
        process.stderr.write(`render: ${error.message}\n${USAGE}\n`);
      } else if (error instanceof ApiError) {
        // The same error object the API answers with (spec 1 §7), so scripts can read the field issues.
        const fields =
          (error.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
        const header =
          fields.length > 0 ? `the request is invalid (${error.code}):` : `${error.code}: ${error.message}`;
        process.stderr.write(
          `render: ${header}\n${fields.map((f) => `  ${f.field} ${f.message}\n`).join('')}`,
        );
        process.stdout.write(
          `${JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } })}\n`,
        );
      } else if (error instanceof JobFailure) {
        process.stderr.write(`render: ${error.jobError.code}: ${error.message}\n`);
        process.stdout.write(`${JSON.stringify({ error: error.jobError })}\n`);
      } else {
        process.stderr.write(`render: ${(error as Error).stack ?? String(error)}\n`);
      }
      process.exit(code);
    },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) run();
