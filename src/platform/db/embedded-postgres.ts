import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
  writeFile,
} from 'node:fs/promises';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { configurePort, configuredPort, readPostmaster } from './cluster-files.ts';
import { EmbeddedDatabaseError } from './embedded-database-error.ts';
import { ROOT_HOME, serverUser, type ServerUser } from './embedded-postgres-user.ts';

export { EmbeddedDatabaseError };

export interface EmbeddedDatabase {
  connectionString: string;
  port: number;
  /** The cluster's real folder: DATA_DIR/postgres, or as root the folder that link points to. */
  clusterDir: string;
  /** True when this process started PostgreSQL (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'reelsmith';
const PASSWORD = 'reelsmith';
const DATABASE = 'reelsmith';
const DEFAULT_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  // Loopback TCP only: no socket files in /tmp for clusters of different users to trip over.
  unix_socket_directories: '',
  max_connections: '200',
};
/** How long a process waits for a server that another process is starting or stopping. */
const WAIT_FOR_OTHER_MS = 120_000;

const runProgram = promisify(execFile);

function urlFor(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function portTaken(dataDir: string, port: number): EmbeddedDatabaseError {
  return new EmbeddedDatabaseError(
    `Port ${port} of the embedded PostgreSQL of DATA_DIR ${dataDir} is taken by another program: set EMBEDDED_PG_PORT to a free port (this cluster then keeps it).`,
  );
}

/** The reason in a server log: its last FATAL or PANIC message, else its last line. */
function fatalLine(log: string): string {
  const lines = log.trim().split('\n');
  const line = lines.findLast((l) => /\b(FATAL|PANIC):/.test(l)) ?? lines.at(-1) ?? '';
  return line.replace(/^.*?\b(FATAL|PANIC):\s+/, '') || 'it exited without a message';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * The range the system hands out to outgoing connections (Linux reports it; elsewhere IANA's dynamic range).
 * A cluster's port is kept while its server is stopped, so it is chosen outside this range: otherwise any
 * outgoing connection could be holding it when the server starts again.
 */
async function outgoingPortRange(): Promise<[number, number]> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const [low, high] = text.trim().split(/\s+/).map(Number);
  return low && high ? [low, high] : [49152, 65535];
}

async function freePort(): Promise<number> {
  const [low, high] = await outgoingPortRange();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = randomInt(16384, 65536);
    if ((port < low || port > high) && (await listenOn(port)) !== undefined) return port;
  }
  throw new EmbeddedDatabaseError('Found no free port for the embedded PostgreSQL: set EMBEDDED_PG_PORT.');
}

/** The real folder of DATA_DIR's cluster; undefined when it has none yet. */
async function existingCluster(dataDir: string): Promise<string | undefined> {
  const place = join(dataDir, 'postgres');
  const entry = await lstat(place).catch(() => undefined);
  if (!entry) return undefined;
  const real = await realpath(place).catch(() => place);
  if (existsSync(join(real, 'PG_VERSION'))) return real;
  if (entry.isSymbolicLink()) {
    throw new EmbeddedDatabaseError(
      `${place} links to ${await readlink(place)}, which holds no PostgreSQL cluster: restore that folder, or remove the link to start with an empty database.`,
    );
  }
  // Older versions made this folder before initdb ran, and left it empty when initdb failed.
  try {
    await rmdir(place);
  } catch {
    throw new EmbeddedDatabaseError(
      `${place} holds files but no PostgreSQL cluster: move it away, or set DATA_DIR to another folder.`,
    );
  }
  return undefined;
}

/**
 * The port of the server running this cluster, once it accepts connections; undefined when none runs.
 * A server that another process is starting or stopping is waited for.
 */
async function runningPort(clusterDir: string, dataDir: string): Promise<number | undefined> {
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  for (;;) {
    const postmaster = await readPostmaster(clusterDir);
    if (postmaster && !processAlive(postmaster.pid)) return undefined;
    if (postmaster?.status === 'ready') return postmaster.port;
    if (!postmaster && !existsSync(join(clusterDir, 'postmaster.pid'))) return undefined;
    if (Date.now() > deadline) {
      throw new EmbeddedDatabaseError(
        `The embedded PostgreSQL of DATA_DIR ${dataDir} has been starting or stopping for ${WAIT_FOR_OTHER_MS / 1000} s (see ${join(clusterDir, 'postmaster.pid')}): stop its process and start again.`,
      );
    }
    await sleep(100);
  }
}

async function withClient<T>(port: number, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor(port, 'postgres') });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Joins the server running this cluster, after checking that the port named in postmaster.pid is really it. */
async function joinRunning(clusterDir: string, dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const served = await withClient(port, async (client) => {
    const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
    return realpath(rows[0]!.dir).catch(() => rows[0]!.dir);
  }).catch(() => undefined);
  if (served !== clusterDir) {
    throw new EmbeddedDatabaseError(
      `${join(clusterDir, 'postmaster.pid')} names port ${port}, where another server answers: if no PostgreSQL runs DATA_DIR ${dataDir}, delete that stale file.`,
    );
  }
  return { connectionString: urlFor(port, DATABASE), port, clusterDir, owned: false, stop: async () => {} };
}

async function initdb(user: ServerUser, clusterDir: string): Promise<void> {
  // Beside the cluster folder, where its user can read it; removed as soon as initdb is done.
  const passwordFile = `${clusterDir}.password`;
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user.ids) await chown(passwordFile, user.ids.uid, user.ids.gid);
  try {
    await runProgram(
      join(user.binDir, 'initdb'),
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      { ...user.ids, cwd: dirname(clusterDir), env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (error) {
    const output = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new EmbeddedDatabaseError(
      `Could not create the embedded PostgreSQL cluster in ${clusterDir}: ${output.split('\n').at(-1)}`,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Creates DATA_DIR's cluster, listening on `port`, and returns its real folder. It is made under another
 * name and then published in one step, so a process that finds DATA_DIR/postgres finds a whole cluster;
 * when two processes create it at once, one cluster wins and both use it.
 */
async function createCluster(dataDir: string, user: ServerUser, port: number): Promise<string> {
  const place = join(dataDir, 'postgres');
  const id = randomBytes(8).toString('hex');
  await mkdir(dataDir, { recursive: true });
  // As root the cluster lives where the "postgres" user can reach it, owned by it; DATA_DIR/postgres links to it.
  const clusterDir = user.ids ? join(ROOT_HOME, 'clusters', id) : join(dataDir, `postgres.creating-${id}`);
  if (user.ids) {
    await mkdir(clusterDir, { recursive: true });
    await chmod(ROOT_HOME, 0o755);
    await chmod(join(ROOT_HOME, 'clusters'), 0o755);
    await chown(clusterDir, user.ids.uid, user.ids.gid);
  }
  try {
    await initdb(user, clusterDir);
    await configurePort(clusterDir, port);
    if (user.ids) await symlink(clusterDir, place);
    else await rename(clusterDir, place);
  } catch (error) {
    await rm(clusterDir, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
  }
  return realpath(place);
}

/** Starts the cluster's server; undefined when another process started it first (then that one is joined). */
async function startServer(
  user: ServerUser,
  clusterDir: string,
  dataDir: string,
  settings: Record<string, string>,
): Promise<EmbeddedDatabase | undefined> {
  const port = (await configuredPort(clusterDir))!;
  if ((await listenOn(port)) === undefined) throw portTaken(dataDir, port);
  const flags = Object.entries({ ...DEFAULT_SETTINGS, ...settings }).flatMap(([name, value]) => [
    '-c',
    `${name}=${value}`,
  ]);
  // Its own process group: a Ctrl-C in the terminal reaches only us, and we stop PostgreSQL after our work.
  const child = spawn(join(user.binDir, 'postgres'), ['-D', clusterDir, ...flags], {
    ...user.ids,
    cwd: clusterDir,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  // The log is read for as long as the server runs (a full pipe would block it); its tail explains a failure.
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  let ended: string | undefined;
  child.once('error', (error) => (ended = error.message));
  child.once('close', () => (ended ??= fatalLine(log)));
  for (;;) {
    if (ended !== undefined) {
      const other = await readPostmaster(clusterDir);
      if (other && other.pid !== child.pid && processAlive(other.pid)) return undefined;
      if (/could not bind|already in use/i.test(log)) throw portTaken(dataDir, port);
      throw new EmbeddedDatabaseError(
        `The embedded PostgreSQL of DATA_DIR ${dataDir} did not start: ${ended}`,
      );
    }
    const postmaster = await readPostmaster(clusterDir);
    if (postmaster && postmaster.pid === child.pid && postmaster.status === 'ready') break;
    await sleep(50);
  }
  await withClient(port, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Detached, it would outlive a process that exits without stopping it (an uncaught error, process.exit).
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  return {
    connectionString: urlFor(port, DATABASE),
    port,
    clusterDir,
    owned: true,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, the data is flushed.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * Uses the PostgreSQL cluster of DATA_DIR: joins it when another process (a server, a worker, the admin CLI)
 * runs it, at the port that server wrote in postmaster.pid; otherwise creates it on first use and starts it.
 * A new cluster listens on `port` when given (EMBEDDED_PG_PORT), else on a free port picked then; the port is
 * kept in its postgresql.conf. `settings` are server settings for this start (e.g. fsync=off for tests).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port?: number,
  settings: Record<string, string> = {},
): Promise<EmbeddedDatabase> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    let clusterDir = await existingCluster(dataDir);
    if (clusterDir) {
      const running = await runningPort(clusterDir, dataDir);
      if (running !== undefined) return joinRunning(clusterDir, dataDir, running);
    }
    const user = await serverUser();
    clusterDir ??= await createCluster(dataDir, user, port ?? (await freePort()));
    // EMBEDDED_PG_PORT, when set, becomes the cluster's port; a cluster made by an older version gets one.
    const configured = await configuredPort(clusterDir);
    if (port !== undefined ? configured !== port : configured === undefined) {
      await configurePort(clusterDir, port ?? (await freePort()));
    }
    const started = await startServer(user, clusterDir, dataDir, settings);
    if (started) return started;
  }
  throw new EmbeddedDatabaseError(
    `The embedded PostgreSQL of DATA_DIR ${dataDir} was started and stopped by other processes three times while this one tried to join it: start again.`,
  );
}
