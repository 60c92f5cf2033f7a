import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Reelsmith } from '../client.ts';
import { downloadArtifacts } from '../download-artifacts.ts';
import type { VideoEndpoint } from '../types.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { renderTime, size, usd } from './format.ts';
import { renderLocally, requireRepository } from './local-render.ts';
import { ProgressDisplay } from './progress-bar.ts';
import { canPrompt, confirm } from './prompt.ts';
import { apiKey, serverUrl, type ConnectionFlags } from './settings.ts';

export interface VideoFlags extends ConnectionFlags {
  out?: string | undefined;
  duration?: string | undefined;
  body?: string | undefined;
  endpoint?: string | undefined;
  all: boolean;
  yes: boolean;
  local: boolean;
  'no-stream': boolean;
  'idempotency-key'?: string | undefined;
  json: boolean;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The Generate body: --body's JSON, then the topic and --duration on top. */
async function requestBody(topic: string | undefined, flags: VideoFlags): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  if (flags.body) {
    const text = flags.body === '-' ? await readStdin() : await readFile(flags.body, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`--body is not valid JSON: ${(error as Error).message}`, EXIT.usage);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new CliError('--body must hold a JSON object (a Generate body)', EXIT.usage);
    body = parsed as Record<string, unknown>;
  }
  if (topic !== undefined) body.topic = topic;
  if (flags.duration !== undefined) {
    const seconds = Number(flags.duration);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new CliError(`--duration must be a number of seconds, got "${flags.duration}"`, EXIT.usage);
    body.duration_sec = seconds;
  }
  // Without --body the topic is the request; a body may be for a route that takes no topic (an article URL…).
  if (!flags.body && body.topic === undefined)
    throw new CliError('give a topic: reelsmith video "how compound interest works"', EXIT.usage);
  return body;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `reelsmith video "topic" --out video.mp4`: price, confirm, create, follow, download. */
export async function videoCommand(
  topic: string | undefined,
  flags: VideoFlags,
  signal: AbortSignal,
): Promise<void> {
  const body = await requestBody(topic, flags);
  const out = flags.out ? resolve(flags.out) : undefined;
  const display = new ProgressDisplay();
  if (flags.local) {
    if (flags.endpoint && !/^\/?(api\/v1\/)?generate-and-post$/.test(flags.endpoint))
      throw new CliError(
        '--local renders generate-and-post bodies only; drop --endpoint or --local',
        EXIT.usage,
      );
    requireRepository();
    log('Rendering on this machine with the repository pipeline: nothing is charged.');
    const summary = await renderLocally(body, {
      out: out ?? resolve('video.mp4'),
      all: flags.all,
      signal,
      onProgress: (step) => display.update(step),
      onOutput: (line) => {
        display.done();
        log(line);
      },
    });
    display.done();
    const files = [summary.out, summary.poster, summary.captions].filter((f): f is string => Boolean(f));
    if (flags.json) process.stdout.write(`${JSON.stringify({ local: true, ...summary })}\n`);
    else for (const file of files) process.stdout.write(`saved ${file}\n`);
    return;
  }

  const client = new Reelsmith({
    baseUrl: serverUrl(flags, process.env),
    apiKey: apiKey(flags, process.env),
  });
  const endpoint = (flags.endpoint?.replace(/^\/?(api\/v1\/)?/, '') ?? 'generate-and-post') as VideoEndpoint;
  const [dryRun, usage] = await Promise.all([
    client.dryRun(body, { endpoint, signal }),
    client.usage({ signal }),
  ]);
  for (const warning of dryRun.warnings) log(`warning: ${warning}`);
  const price = dryRun.price.usd_cents;
  const sandbox = usage.key_mode === 'sandbox';
  log(
    `Price: ${usd(price)} (${dryRun.mode})` +
      (sandbox
        ? ' — sandbox key: a placeholder video, nothing is charged.'
        : ` — balance ${usd(usage.balance_usd_cents)}, render ${renderTime(dryRun.estimated_render_seconds)}.`),
  );
  if (!sandbox && price > 0 && !flags.yes) {
    if (!canPrompt())
      throw new CliError(
        `not charged: add --yes to charge ${usd(price)} without being asked (no terminal to ask on)`,
        EXIT.notConfirmed,
      );
    if (!(await confirm(`Charge ${usd(price)} and render?`, signal)))
      throw new CliError('not charged: the price was declined', EXIT.notConfirmed);
  }

  const receipt = await client.createVideo(body, {
    endpoint,
    signal,
    ...(flags['idempotency-key'] ? { idempotencyKey: flags['idempotency-key'] } : {}),
  });
  log(
    `Job ${receipt.job_id} ${receipt.replayed ? 'already created (replayed)' : receipt.status}` +
      (sandbox ? '' : `, charged ${usd(receipt.price_usd_cents)}`) +
      ` (Idempotency-Key ${receipt.idempotency_key}).`,
  );
  let job;
  try {
    job = await client.waitForJob(receipt, {
      signal,
      stream: !flags['no-stream'],
      onProgress: (event) => display.update(event),
      onStreamError: (error) => {
        display.done();
        log(`progress stream unavailable (${error.message}); polling instead`);
      },
    });
  } catch (error) {
    display.done();
    if (signal.aborted)
      throw new CliError(
        `stopped waiting; the job continues on the server: reelsmith jobs ${receipt.job_id}`,
        EXIT.interrupted,
      );
    throw error;
  }
  display.done();
  if (job.status !== 'completed') {
    const reason = job.error ? `${job.error.code}: ${job.error.message}` : 'no reason given';
    const refunded = ['failed', 'dead_lettered', 'cancelled'].includes(job.status) && !sandbox;
    throw new CliError(
      `job ${job.id} ended ${job.status} (${reason})${refunded ? `; the ${usd(job.price_usd_cents)} were refunded` : ''}`,
      EXIT.failed,
    );
  }
  const files = await downloadArtifacts(job, { all: flags.all, signal, ...(out ? { out } : {}) });
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({
        job_id: job.id,
        status: job.status,
        price_usd_cents: job.price_usd_cents,
        title: job.artifacts.title,
        files: files.map(({ role, path, bytes }) => ({ role, path, bytes })),
      })}\n`,
    );
  } else {
    if (job.artifacts.title) log(`Title: ${job.artifacts.title}`);
    for (const file of files)
      process.stdout.write(`saved ${file.path} (${file.role}, ${size(file.bytes)})\n`);
  }
}
