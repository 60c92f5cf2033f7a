// A real, small MP4 (H.264 picture, AAC tone) made by ffmpeg at test time: what the fake video-model servers hand
// out as a generated shot, so downloads are probed like a real result.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';

export const SHOT_CLIP = { width: 320, height: 568, seconds: 2 } as const;

export async function makeShotClip(dir?: string): Promise<string> {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), 'shot-clip-')));
  const path = join(folder, 'shot.mp4');
  const { width, height, seconds } = SHOT_CLIP;
  await runFfmpeg(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=24:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      path,
    ],
    { timeoutMs: 60_000 },
  );
  return path;
}
