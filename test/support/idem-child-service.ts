import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { testMode, testPriceBook } from './test-mode.ts';

// A second API process for the cross-process idempotency tests: the real runtime with the test mode, configured
// by the environment like `npm run serve` (RUN_WORKER=0 makes it API-only). Prints one JSON line once it listens.

const config = loadConfig(process.env);
const modes = [testMode()];
const runtime = await startRuntime({
  config,
  log: createLogger(config.logLevel),
  modes,
  prices: testPriceBook(modes),
  http: true,
  worker: config.runWorker,
});
process.stdout.write(`${JSON.stringify({ ready: true, url: runtime.url })}\n`);

process.once('SIGTERM', () => {
  runtime.stop({ graceMs: 1000 }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
