import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DownloadError } from '../download-artifacts.ts';
import { ReelsmithError } from '../errors.ts';
import { CliError, EXIT, exitCodeOf } from './exit-codes.ts';
import { jobsCommand, type JobsFlags } from './jobs-command.ts';
import { DEFAULT_SERVER } from './settings.ts';
import { usageCommand } from './usage-command.ts';
import { videoCommand, type VideoFlags } from './video-command.ts';

const HELP = `Usage: reelsmith <command> [options]

Commands
  video TOPIC [--out video.mp4]   price, confirm, render and download a video
  jobs [JOB_ID]                   your videos, newest first; or one job with its progress and links
  usage                           balance, ledger totals and prices

Connection (every command except video --local)
  --server URL     the Reelsmith server (env REELSMITH_URL, default ${DEFAULT_SERVER})
  --key KEY        an API key, svc_… or sandbox svc_test_… (env REELSMITH_API_KEY)

video
  --out PATH            where the MP4 goes (default ./<job id>.mp4; with --local ./video.mp4)
  --duration SEC        target length in seconds (duration_sec)
  --body FILE           a JSON Generate body to start from (- for stdin); TOPIC and --duration go on top
  --endpoint PATH       the Generate route (default generate-and-post; e.g. videos/magic, blog-to-video)
  --all                 also save the poster and the captions beside the video
  --yes, -y             charge without asking (needed when there is no terminal to ask on)
  --no-stream           poll the job instead of following its progress stream
  --idempotency-key K   reuse a key to resume an earlier attempt without a second charge
  --local               render on this machine with the repository pipeline: no server, no key, no
                        charge (only inside a checkout of the Reelsmith repository)
jobs
  --limit N             videos per page, 1-100 (default 20)
  --cursor C            the next page (the cursor the previous page printed)

Every command
  --json                one JSON document on stdout instead of text
  --help, -h            this text
  --version             the client's version

Exit codes: 0 done; 1 the job failed or was cancelled, a download failed, the server was unreachable or
answered 5xx; 2 bad usage or a request the server refused; 3 no API key or a refused key; 4 the price was
not confirmed; 5 the balance does not cover the price; 130 interrupted.`;

const CONNECTION = {
  server: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

const OPTIONS = {
  video: {
    ...CONNECTION,
    out: { type: 'string', short: 'o' },
    duration: { type: 'string' },
    body: { type: 'string' },
    endpoint: { type: 'string' },
    all: { type: 'boolean', default: false },
    yes: { type: 'boolean', short: 'y', default: false },
    'no-stream': { type: 'boolean', default: false },
    'idempotency-key': { type: 'string' },
    local: { type: 'boolean', default: false },
  },
  jobs: { ...CONNECTION, limit: { type: 'string' }, cursor: { type: 'string' } },
  usage: CONNECTION,
} as const satisfies Record<string, ParseArgsConfig['options']>;

type Command = keyof typeof OPTIONS;

function version(): string {
  const manifest = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

async function run(argv: string[], signal: AbortSignal): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (command === '--version') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (!Object.hasOwn(OPTIONS, command))
    throw new CliError(
      `unknown command "${command}": use video, jobs or usage (reelsmith --help)`,
      EXIT.usage,
    );
  const name = command as Command;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS[name], allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (reelsmith --help)`, EXIT.usage);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const maxPositionals = name === 'usage' ? 0 : 1;
  if (positionals.length > maxPositionals)
    throw new CliError(
      name === 'video'
        ? `give the topic as one argument, in quotes: reelsmith video "${positionals.join(' ')}"`
        : `too many arguments: ${positionals.join(' ')}`,
      EXIT.usage,
    );
  switch (name) {
    case 'video':
      return videoCommand(positionals[0], values as VideoFlags, signal);
    case 'jobs':
      return jobsCommand(positionals[0], values as JobsFlags);
    case 'usage':
      return usageCommand(values);
  }
}

function describe(error: unknown): string {
  if (error instanceof CliError || error instanceof DownloadError) return error.message;
  if (error instanceof ReelsmithError) {
    const fields = (error.details?.fields as { field: string; message: string }[] | undefined) ?? [];
    const hint = error.code === 'AUTH_INVALID_API_KEY' ? ' (check --key / REELSMITH_API_KEY)' : '';
    return `${error.code}: ${error.message}${hint}${fields.map((f) => `\n  ${f.field} ${f.message}`).join('')}`;
  }
  if (error instanceof TypeError && (error.cause as { code?: string } | undefined)?.code)
    return `cannot reach the server: ${(error.cause as { code: string }).code} (check --server / REELSMITH_URL)`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Runs the command line and exits with its exit code. */
export function main(argv: string[] = process.argv.slice(2)): void {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    // A second Ctrl-C ends at once (Node's default handling is back after the first).
    controller.abort(new Error('interrupted'));
  });
  run(argv, controller.signal).then(
    () => process.exit(EXIT.ok),
    (error: unknown) => {
      const interrupted = controller.signal.aborted;
      const code = interrupted ? EXIT.interrupted : exitCodeOf(error);
      const message = interrupted && !(error instanceof CliError) ? 'interrupted' : describe(error);
      process.stderr.write(`reelsmith: ${message}\n`);
      process.exit(code);
    },
  );
}
