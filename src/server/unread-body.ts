import type { IncomingMessage } from 'node:http';

// A request refused before its body was read (413 on Content-Length, an unknown content type, a refused
// upload) is answered with `Connection: close`. Closing a socket that still has unread bytes makes the kernel
// send a reset, which destroys the answer in the client's buffer when the client reads only after it has sent
// everything (as most HTTP clients do): it sees "connection reset" instead of the 413. So the rest of the body
// is read and thrown away before answering, within bounds that keep a huge or stalled upload from holding the
// connection (past them the answer goes out anyway).

export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

export const DRAIN_LIMITS: DrainLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 30_000 };

export function drainUnreadBody(request: IncomingMessage, limits: DrainLimits = DRAIN_LIMITS): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (): void => {
      clearTimeout(timer);
      request.off('data', count);
      request.off('end', finish);
      request.off('close', finish);
      request.off('error', finish);
      resolve();
    };
    const count = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) finish();
    };
    const timer = setTimeout(finish, limits.maxMs);
    request.on('data', count);
    request.on('end', finish);
    request.on('close', finish);
    request.on('error', finish);
    request.resume();
  });
}
