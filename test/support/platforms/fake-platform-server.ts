// Plumbing the fake publishing-platform servers share: a loopback HTTP server, request bodies read whole or cut off
// part-way (the connection destroyed as a flaky network would), a signed-link file server for platforms that pull
// the video themselves, and the list of protocol violations each fake keeps so tests can assert there were none.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export { json } from '../json-http.ts';

export interface LoopbackServer {
  baseUrl: string;
  close(): Promise<void>;
}

export type FakeHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;

export async function startLoopback(handler: FakeHandler): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    Promise.resolve(handler(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Reads the body until at least `limit` bytes arrived, then destroys the connection mid-request. Resolves with
 * exactly the bytes that arrived before the cut (what a real server would have stored) and whether it cut.
 */
export function readThenDrop(
  req: IncomingMessage,
  limit: number,
): Promise<{ arrived: Buffer; dropped: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) {
        settled = true;
        req.socket.destroy();
        resolve({ arrived: Buffer.concat(chunks), dropped: true });
      }
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ arrived: Buffer.concat(chunks), dropped: false });
    });
    req.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

export function formFields(body: Buffer): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
}

export function parseJsonBody(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

/** Serves one file at /media/video.mp4, only with the right `sig` query: a stand-in for the service's signed links. */
export async function startSignedFileServer(
  path: string,
): Promise<LoopbackServer & { signedUrl: string; downloads: number }> {
  const bytes = await readFile(path);
  const signature = 'sig-3f9a';
  const state = { downloads: 0 };
  const server = await startLoopback((req, res, url) => {
    if (url.pathname !== '/media/video.mp4' || url.searchParams.get('sig') !== signature) {
      res.writeHead(403).end();
      return;
    }
    state.downloads++;
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) }).end(bytes);
  });
  return {
    ...server,
    signedUrl: `${server.baseUrl}/media/video.mp4?sig=${signature}&exp=4102444800`,
    get downloads() {
      return state.downloads;
    },
  };
}
