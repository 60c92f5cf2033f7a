import pg from 'pg';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime } from '../../src/platform/runtime.ts';
import { testMode, testPriceBook } from '../../test/support/test-mode.ts';

// The API under benchmark: the real server with a stand-in mode (no worker, so acceptances only queue).

// Round trips to PostgreSQL: every statement any pool (ours or the queue's) sends goes through Client#query.
let roundTrips = 0;
const prototype = pg.Client.prototype as unknown as {
  query: (this: pg.Client, ...args: unknown[]) => unknown;
};
const query = prototype.query;
prototype.query = function (this: pg.Client, ...args: unknown[]) {
  roundTrips++;
  return query.apply(this, args);
};

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
process.on('message', (message) => {
  if (message === 'round-trips') process.send?.({ roundTrips });
});
process.send?.({ ready: runtime.url });
process.once('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
