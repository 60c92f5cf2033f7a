// The vision models' home: a child process started by vision-process-client.ts. Its TensorFlow.js WebAssembly
// heap grows to the largest working set and never shrinks; all of it goes when the process exits idle.
import { readFile } from 'node:fs/promises';
import { detectFaces } from './faces.ts';
import type { ImageInput } from './image-input.ts';
import { segmentPerson } from './segment.ts';
import { VisionModelsMissingError } from './runtime.ts';
import type { VisionReply, VisionRequest, WireImage } from './vision-process-client.ts';

const send = process.send?.bind(process);
if (!send) throw new Error('vision-process.ts runs as a child process (see vision-process-client.ts)');

async function picture(image: WireImage): Promise<ImageInput> {
  if (typeof image === 'string') return image;
  const data = await readFile(image.rawFile);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: image.width,
    height: image.height,
  };
}

async function perform(request: VisionRequest): Promise<unknown> {
  if (request.op === 'detectFaces') return detectFaces(await picture(request.args[0]), request.args[1]);
  return segmentPerson(await picture(request.args[0]));
}

process.on('message', (request: VisionRequest) => {
  perform(request).then(
    (result) => send({ id: request.id, result } satisfies VisionReply),
    (error: unknown) =>
      send({
        id: request.id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          missing: error instanceof VisionModelsMissingError ? error.missing : undefined,
        },
      } satisfies VisionReply),
  );
});

// The parent closes the channel to end this process (or it died): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
