import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// What a PostgreSQL cluster folder says about itself: the port it is configured with (postgresql.conf)
// and, while a server runs it, that server's process and port (postmaster.pid).

export interface Postmaster {
  pid: number;
  port: number;
  /** "starting", "ready", "stopping" or "standby"; empty while the file is being written. */
  status: string;
}

/** Lines 1, 4 and 8 of postmaster.pid; undefined when no server holds the cluster or the file is half written. */
export async function readPostmaster(clusterDir: string): Promise<Postmaster | undefined> {
  const text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const lines = text?.split('\n') ?? [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  return { pid, port, status: lines[7]?.trim() ?? '' };
}

const PORT_LINE = /^[ \t]*port[ \t]*=[ \t]*'?(\d+)'?.*$/gm;

/** The port set in postgresql.conf (the last setting wins, as in PostgreSQL); undefined when left at default. */
export async function configuredPort(clusterDir: string): Promise<number | undefined> {
  const conf = await readFile(join(clusterDir, 'postgresql.conf'), 'utf8');
  const ports = [...conf.matchAll(PORT_LINE)].map((match) => Number(match[1]));
  return ports.at(-1);
}

/** Sets the cluster's port in postgresql.conf, so that every later start of this cluster uses it. */
export async function configurePort(clusterDir: string, port: number): Promise<void> {
  const path = join(clusterDir, 'postgresql.conf');
  const conf = (await readFile(path, 'utf8')).replace(PORT_LINE, '').trimEnd();
  await writeFile(
    path,
    `${conf}\n\nport = ${port}\t\t# kept by Reelsmith for this cluster (EMBEDDED_PG_PORT)\n`,
  );
}
