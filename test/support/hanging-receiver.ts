import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HangingReceiver {
  /** Base address, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Arrival times (ms since the epoch) of every request, in order. */
  arrivals: number[];
  /** The most requests that were ever open at the same time. */
  mostOpenAtOnce(): number;
  close(): Promise<void>;
}

/** A webhook endpoint that reads each request and never answers, like a receiver stuck behind a dead proxy. */
export async function startHangingReceiver(): Promise<HangingReceiver> {
  const arrivals: number[] = [];
  let open = 0;
  let most = 0;
  const server: Server = createServer((request, response) => {
    arrivals.push(Date.now());
    open++;
    most = Math.max(most, open);
    response.on('close', () => open--);
    request.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    mostOpenAtOnce: () => most,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
