// Named pipes between the motion engine and ffmpeg. Both ends are opened non-blocking and wrapped in net
// sockets: a blocking open or write of a FIFO would hold one of libuv's four pool threads until ffmpeg reads.
import { constants, openSync, closeSync } from 'node:fs';
import { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { runProcess } from '../process/run-process.ts';

/** How often a writer retries while the reader (ffmpeg) has not opened its end yet. */
const OPEN_POLL_MS = 10;

export async function makeFifo(path: string, signal?: AbortSignal): Promise<void> {
  await runProcess('mkfifo', ['-m', '600', path], { signal });
}

/**
 * Opens the write end once a reader has the FIFO open (until then a non-blocking open fails with ENXIO).
 * Writes then wait for the reader through the socket's own backpressure; if the reader goes away they fail
 * with EPIPE.
 */
export async function openFifoWriter(path: string, signal?: AbortSignal): Promise<Socket> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      return new Socket({ fd, readable: false, writable: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    await sleep(OPEN_POLL_MS, undefined, { signal });
  }
}

export interface FifoReader {
  socket: Socket;
  /**
   * Call once the writing process has exited: until then a write end held open here keeps the FIFO from
   * reading as ended before the writer has even opened it; afterwards what is left is read, then the end.
   */
  writerDone: () => void;
}

/**
 * Where a reader's bytes land: `buffer()` is asked before each read for the memory to read into, and `callback`
 * gets the count read; returning false pauses reading until `socket.resume()`. Reading straight into the
 * consumer's memory allocates nothing per read (a Buffer per 64 KB read made a 30 s render spend seconds in GC).
 */
export interface FifoReadInto {
  buffer: () => Uint8Array;
  callback: (bytesRead: number) => boolean;
}

/** Opens the read end at once, before the writing process starts. */
export function openFifoReader(path: string, into?: FifoReadInto): FifoReader {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let heldWriteEnd: number | null = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  const socket = new Socket({ fd, readable: true, writable: false, ...(into ? { onread: into } : {}) });
  return {
    socket,
    writerDone: () => {
      if (heldWriteEnd === null) return;
      closeSync(heldWriteEnd);
      heldWriteEnd = null;
    },
  };
}
