// Streams an uploaded body to a file, never holding more than one chunk in memory, counting and hashing
// the bytes; a body over the limit (or any failure) leaves no file behind.

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';

export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the upload is larger than ${maxBytes} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

export interface ReceivedUpload {
  bytes: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** Writes `source` to `destPath` through a `.part` file renamed at the end, so the file is always complete. */
export async function receiveUpload(
  source: Readable,
  destPath: string,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<ReceivedUpload> {
  const { maxBytes } = options;
  // Unique per call: two uploads to the same destination never write into one file.
  const partPath = `${destPath}.${randomBytes(6).toString('hex')}.part`;
  const hash = createHash('sha256');
  let bytes = 0;
  // Watched from the start: a source that fails or ends early (client gone) fails the write, and its error
  // always has a listener, even while the folder is being made.
  const early: { error?: Error; meter?: Transform } = {};
  finished(source).catch((error: Error) => {
    early.error = error;
    early.meter?.destroy(error);
  });
  await mkdir(dirname(destPath), { recursive: true });
  if (early.error) throw early.error;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(new UploadTooLargeError(maxBytes));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  early.meter = meter;
  // The source is piped, not part of the pipeline: a refused body must not destroy an HTTP request, whose
  // socket is still needed to answer 413.
  const written = pipeline(
    meter,
    createWriteStream(partPath),
    options.signal ? { signal: options.signal } : {},
  );
  source.pipe(meter);
  try {
    await written;
    await rename(partPath, destPath);
  } catch (error) {
    source.unpipe(meter);
    await rm(partPath, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}
