// Files the service links to, fetched the way a caller would, and decoded pixels for checking what a render shows.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';

/** Downloads a (signed) link to `path`; the link must answer 200. */
export async function downloadTo(url: string, path: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  await writeFile(path, Buffer.from(await response.arrayBuffer()));
  return path;
}

/** The frame at `seconds` as packed RGB24 (width × height × 3 bytes), decoded by ffmpeg beside the video. */
export async function frameRgb(video: string, seconds: number): Promise<Buffer> {
  const out = `${video}.${seconds}.${process.hrtime.bigint()}.rgb`;
  try {
    await runFfmpeg([
      '-y',
      '-ss',
      String(seconds),
      '-i',
      video,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(out, { force: true });
  }
}
