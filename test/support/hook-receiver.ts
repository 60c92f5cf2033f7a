import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  at: number;
}

export interface HookReceiver {
  /** Base address, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Every POST received on `path`, in arrival order. */
  received(path: string): ReceivedHook[];
  /**
   * The statuses to answer on `path`, one per request in order; once used up the last one repeats.
   * Paths without a script answer 200.
   */
  script(path: string, statuses: number[]): void;
  /** Resolves once `path` has received `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** A loopback HTTP server standing in for a customer's webhook endpoint. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const hooks: ReceivedHook[] = [];
  const scripts = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const count = hooks.filter((h) => h.path === path).length;
      hooks.push({
        path,
        headers: request.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const statuses = scripts.get(path) ?? [200];
      const status = statuses[Math.min(count, statuses.length - 1)]!;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const received = (path: string) => hooks.filter((h) => h.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (path, statuses) => scripts.set(path, statuses),
    async waitFor(path, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `${path} received ${received(path).length} of ${count} webhooks within ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
      return received(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
