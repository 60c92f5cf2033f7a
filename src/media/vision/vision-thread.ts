// The vision models' home: a worker thread started by vision-thread-client.ts. The TensorFlow.js WebAssembly
// heap grows to the largest working set and never shrinks; here it is freed whenever the thread exits idle.
import { parentPort } from 'node:worker_threads';
import { detectFaces } from './faces.ts';
import { segmentPerson } from './segment.ts';
import { VisionModelsMissingError } from './runtime.ts';
import type { ThreadReply, ThreadRequest } from './vision-thread-client.ts';

const port = parentPort;
if (!port) throw new Error('vision-thread.ts runs as a worker thread (see vision-thread-client.ts)');

async function perform(request: ThreadRequest): Promise<{ result: unknown; transfer: ArrayBuffer[] }> {
  if (request.op === 'detectFaces') {
    const faces = await detectFaces(...request.args);
    return { result: faces, transfer: faces.map((face) => face.descriptor.buffer as ArrayBuffer) };
  }
  const mask = await segmentPerson(...request.args);
  return { result: mask, transfer: mask ? [mask.mask.buffer as ArrayBuffer] : [] };
}

port.on('message', (request: ThreadRequest) => {
  perform(request).then(
    ({ result, transfer }) => port.postMessage({ id: request.id, result } satisfies ThreadReply, transfer),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          missing: error instanceof VisionModelsMissingError ? error.missing : undefined,
        },
      } satisfies ThreadReply),
  );
});
