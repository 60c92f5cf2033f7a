import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { testMode, testPriceBook } from '../../test/support/test-mode.ts';

// The API under benchmark: the real server with a stand-in mode (no worker, so acceptances only queue).

const config = loadConfig();
const modes = [testMode({ heavy: false })];
const runtime = await startRuntime({
  config,
  log: createLogger(config.logLevel),
  modes,
  prices: testPriceBook(modes),
  http: true,
  worker: false,
});
process.send?.({ ready: runtime.url });
process.once('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
