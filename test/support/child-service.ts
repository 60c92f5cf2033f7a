import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { hangOnceMode } from './hook-modes.ts';
import { testMode, testPriceBook } from './test-mode.ts';

// A separate service process configured only by its environment: CHILD_HTTP=1 serves HTTP, RUN_WORKER
// chooses the worker, CHILD_MODE=hang-once registers hangOnceMode instead of testMode, CHILD_GRACE_MS is
// how long SIGTERM lets running jobs finish. Prints "ready" once started so the parent knows.

const config = loadConfig();
const modes = [process.env.CHILD_MODE === 'hang-once' ? hangOnceMode() : testMode()];
const runtime = await startRuntime({
  config,
  log: createLogger(config.logLevel, 'stderr'),
  modes,
  prices: testPriceBook(modes),
  http: process.env.CHILD_HTTP === '1',
  worker: config.runWorker,
});
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  runtime.stop({ graceMs: Number(process.env.CHILD_GRACE_MS ?? 30_000) }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`stop failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
