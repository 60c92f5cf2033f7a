import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { testMode, testPriceBook } from './test-mode.ts';

// A second API process serving the test mode, configured only by its environment (like `npm start`).
// Tests spawn it to share a database with the in-process service, or to read the real stdout of a process.

const config = loadConfig();
const modes = [testMode()];
const runtime = await startRuntime({
  config,
  log: createLogger(config.logLevel),
  modes,
  prices: testPriceBook(modes),
  http: true,
  worker: config.runWorker,
});

process.once('SIGTERM', () => {
  runtime.stop({ graceMs: 1000 }).then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
