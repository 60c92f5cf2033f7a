import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { testMode } from '../../test/support/test-mode.ts';

// The API under benchmark: the real server with a stand-in mode (no worker, so acceptances only queue).

const config = loadConfig();
const runtime = await startRuntime({
  config,
  log: createLogger(config.logLevel),
  modes: [testMode({ heavy: false })],
  http: true,
  worker: false,
});
process.send?.({ ready: runtime.url });
process.once('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
