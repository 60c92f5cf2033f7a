import WebSocket from 'ws';
import { isFinalStatus } from './job-status.ts';

/** One message of the receipt's `websocket_url` (docs/api-notes.md, "Progress stream"). */
export interface StreamMessage {
  type: 'progress';
  job_id: string;
  progress: number;
  status: string;
  stage: string;
  message: string;
  /** The video link on `completed` (null for private delivery and every other message). */
  url: string | null;
  at: string;
}

function textOf(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

/** Why the stream could not be followed to the end; the caller then polls. */
export class StreamError extends Error {
  override readonly name = 'StreamError';
  constructor(
    message: string,
    /** The WebSocket close code when the server closed it (4401 bad token, 4404 unknown job). */
    readonly closeCode?: number,
  ) {
    super(message);
  }
}

export interface FollowOptions {
  onMessage(message: StreamMessage): void;
  signal?: AbortSignal | undefined;
  /** How long to wait for the connection to open. */
  openTimeoutMs?: number;
  /** A ping every this often; no pong before the next one means the connection is dead. */
  heartbeatMs?: number;
}

/**
 * Follows a job's progress stream until its final status and resolves with that last message. Rejects with a
 * StreamError when the socket cannot open, is refused, or ends before a final status (a proxy that drops
 * WebSockets, a restarted server, a silent half-open connection).
 */
export function followProgressStream(url: string, options: FollowOptions): Promise<StreamMessage> {
  const { signal, openTimeoutMs = 10_000, heartbeatMs = 30_000 } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const socket = new WebSocket(url, { handshakeTimeout: openTimeoutMs });
    let final: StreamMessage | undefined;
    let alive = true;
    let settled = false;
    const heartbeat = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, heartbeatMs);
    const onAbort = () => {
      socket.terminate();
      finish(() => reject(signal!.reason as Error));
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    function finish(settle: () => void): void {
      if (settled) return;
      settled = true;
      clearInterval(heartbeat);
      signal?.removeEventListener('abort', onAbort);
      settle();
    }

    socket.on('pong', () => (alive = true));
    socket.on('message', (data: WebSocket.RawData) => {
      alive = true;
      let message: StreamMessage;
      try {
        message = JSON.parse(textOf(data)) as StreamMessage;
      } catch {
        return;
      }
      if (message.type !== 'progress') return;
      options.onMessage(message);
      if (isFinalStatus(message.status)) {
        final = message;
        socket.close(1000);
        finish(() => resolve(message));
      }
    });
    socket.on('error', (error: Error) => {
      finish(() => reject(new StreamError(`progress stream failed: ${error.message}`)));
    });
    socket.on('close', (code: number, reason: Buffer) => {
      finish(() => {
        if (final) resolve(final);
        else
          reject(
            new StreamError(
              `progress stream closed before the job ended (${code}${reason.length ? ` ${reason.toString()}` : ''})`,
              code,
            ),
          );
      });
    });
  });
}
