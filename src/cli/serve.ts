import { countAccounts, createAccount } from '../platform/accounts/accounts.ts';
import { loadConfig } from '../platform/config.ts';
import { exitIfDatabaseCannotStart } from './database-start-failure.ts';
import { createLogger } from '../platform/logger.ts';
import { startRuntime } from '../platform/runtime.ts';
import { productModes } from '../modes/index.ts';

// `npm start`: the API with an in-process worker (RUN_WORKER=0 for an API-only node).

const config = loadConfig();
const log = createLogger(config.logLevel);
const runtime = await startRuntime({
  config,
  log,
  modes: productModes,
  http: true,
  worker: config.runWorker,
}).catch(exitIfDatabaseCannotStart);

if ((await countAccounts(runtime.database.db)) === 0) {
  try {
    const created = await createAccount(runtime.database.db, 'default', 1000);
    process.stdout.write(
      [
        '',
        'Created account "default" with a $10.00 balance. Its keys are shown once; store them now:',
        `  live key:    ${created.live_key}`,
        `  sandbox key: ${created.sandbox_key}`,
        `Open the Studio at ${runtime.url}/studio and sign in with one of them.`,
        '',
      ].join('\n') + '\n',
    );
  } catch (error) {
    // Another process created it at the same moment; its keys were printed there.
    if (!/accounts_name_key/.test(String(error))) throw error;
  }
}
log.info(
  {
    url: runtime.url,
    studio: `${runtime.url}/studio`,
    database: config.databaseUrl ? 'DATABASE_URL' : 'embedded',
    worker: config.runWorker,
  },
  'Reelsmith is serving',
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'shutting down gracefully');
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
