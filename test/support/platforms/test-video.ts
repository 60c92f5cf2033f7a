// A real MP4 of a couple of megabytes for the publishing-platform tests, made once per process by ffmpeg: vertical,
// H.264 with per-pixel noise (so it does not compress to nothing) and an AAC tone.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../../src/media/ffmpeg/runner.ts';

export interface TestVideo {
  path: string;
  bytes: Buffer;
  durationSec: number;
}

let made: Promise<TestVideo> | undefined;

export function testVideo(): Promise<TestVideo> {
  made ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'platform-video-'));
    const path = join(dir, 'post.mp4');
    const durationSec = 3;
    await runFfmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        `nullsrc=s=160x284:r=30:d=${durationSec},geq=lum='random(1)*255':cb=128:cr=128`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:duration=${durationSec}`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '20',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
        '-movflags',
        '+faststart',
        path,
      ],
      { timeoutMs: 60_000 },
    );
    return { path, bytes: await readFile(path), durationSec };
  })();
  return made;
}
