import { loadConfig } from '../platform/config.ts';
import { exitIfDatabaseCannotStart } from './database-start-failure.ts';
import { createLogger } from '../platform/logger.ts';
import { startRuntime } from '../platform/runtime.ts';
import { productModes } from '../modes/index.ts';

// `npm run worker`: a render node without HTTP, for scaling out on a shared DATABASE_URL.

const config = loadConfig();
const log = createLogger(config.logLevel);
const runtime = await startRuntime({ config, log, modes: productModes, http: false, worker: true }).catch(
  exitIfDatabaseCannotStart,
);
log.info({ concurrency: config.workerConcurrency }, 'worker started');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'worker stopping: finishing running jobs');
    runtime.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
