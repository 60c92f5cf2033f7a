import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { StoredFile } from '../jobs/job-presenter.ts';

const VIDEO_KEY = 'examples/sandbox-example.mp4';
const POSTER_KEY = 'examples/sandbox-example.jpg';

const pending = new WeakMap<MediaStore, Promise<StoredFile[]>>();

/**
 * The example files every sandbox job links to: a real 3-second vertical MP4 and its poster, made once
 * with ffmpeg and kept in the media store, so sandbox integrations can test downloading and playback.
 */
export function sandboxExampleFiles(store: MediaStore, workDir: string): Promise<StoredFile[]> {
  const cached = pending.get(store);
  // The files may have been removed from the store since (retention): then make them again.
  if (cached) return cached.then(async (files) => ((await stored(store)) ? files : remake(store, workDir)));
  return remake(store, workDir);
}

async function stored(store: MediaStore): Promise<boolean> {
  return (await store.exists(VIDEO_KEY)) && (await store.exists(POSTER_KEY));
}

function remake(store: MediaStore, workDir: string): Promise<StoredFile[]> {
  const making = (async () => {
    const files: StoredFile[] = [
      { role: 'video', key: VIDEO_KEY, contentType: 'video/mp4' },
      { role: 'thumbnail', key: POSTER_KEY, contentType: 'image/jpeg' },
    ];
    if (await stored(store)) return files;
    await mkdir(workDir, { recursive: true });
    const video = join(workDir, 'sandbox-example.mp4');
    const poster = join(workDir, 'sandbox-example.jpg');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1080x1920:rate=30:duration=3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-ar',
      '48000',
      '-movflags',
      '+faststart',
      '-shortest',
      video,
    ]);
    await runFfmpeg(['-y', '-ss', '1', '-i', video, '-frames:v', '1', '-q:v', '3', poster]);
    await store.put(VIDEO_KEY, video, { move: true });
    await store.put(POSTER_KEY, poster, { move: true });
    return files;
  })().catch((error: unknown) => {
    pending.delete(store);
    throw error;
  });
  pending.set(store, making);
  return making;
}
