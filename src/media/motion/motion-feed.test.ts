// The motion feed's shot hand-over: the next clip's decoder is started while the current shot is drawn, and
// a feed that stops half-way leaves no decoder or pipe behind, the prepared next shot included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { parseCameraMove } from './camera-move.ts';
import { makeFifo, openFifoReader } from './fifo.ts';
import { writeMotionFeed, type MotionShot } from './motion-feed.ts';
import { yuv420pBytes } from './resample.ts';

const FORMAT = { width: 180, height: 320, fps: 30 };
const FRAME = yuv420pBytes(FORMAT);

describe('motion feed', () => {
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-motion-feed-test-'));
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x568:r=30',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      join(dir, 'clip.mp4'),
    ]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const shots = (count: number): MotionShot[] =>
    Array.from({ length: count }, (_, i) => ({
      path: join(dir, 'clip.mp4'),
      kind: 'video',
      inPoint: 0.2 * i,
      frames: 20,
      move: parseCameraMove(i % 2 === 0 ? 'slow zoom in' : 'pan left'),
    }));

  /**
   * Reads the feed at `feedPath` frame by frame; `onFrame` (awaited) decides whether to go on. Resolves with
   * the number of whole frames read when the feed ends or reading stops.
   */
  function readFeed(feedPath: string, onFrame: (frame: number) => Promise<boolean>): Promise<number> {
    const chunk = new Uint8Array(65536);
    let bytes = 0;
    let frames = 0;
    return new Promise((resolve) => {
      const reader = openFifoReader(feedPath, {
        buffer: () => chunk,
        callback: (n) => {
          // The feed's writer has its end open once bytes arrive: from then on its close ends the reading.
          if (bytes === 0) reader.writerDone();
          bytes += n;
          if (bytes < (frames + 1) * FRAME) return true;
          frames += 1;
          void onFrame(frames).then((more) => {
            if (more) reader.socket.resume();
            else {
              reader.socket.destroy();
              resolve(frames);
            }
          });
          return false;
        },
      });
      reader.socket.on('end', () => resolve(frames));
    });
  }

  test("the next shot's decoder is running before the current shot's last frame is taken", async () => {
    const work = await mkdtemp(join(dir, 'work-'));
    const feed = join(work, 'feed.yuv');
    await makeFifo(feed);
    let preparedEarly = false;
    const [read] = await Promise.all([
      readFeed(feed, async (frame) => {
        // Reading stops at frame 10 of the 20 of the first shot, so the feed cannot reach the second shot
        // before the second clip's pipe appears: only a decoder started ahead of time makes it.
        if (frame !== 10) return true;
        for (let waited = 0; waited < 10_000 && !preparedEarly; waited += 50) {
          preparedEarly = (await readdir(work)).includes('clip-1.yuv');
          if (!preparedEarly) await sleep(50);
        }
        return true;
      }),
      writeMotionFeed(feed, shots(3), FORMAT, { workDir: work }),
    ]);
    assert.equal(read, 60);
    assert.ok(preparedEarly, 'the second clip was being decoded during the first shot');
    assert.deepEqual(await readdir(work), ['feed.yuv'], 'every clip pipe is removed');
  });

  test('a reader that goes away mid-shot fails the feed and leaves no clip pipe behind', async () => {
    const work = await mkdtemp(join(dir, 'work-'));
    const feed = join(work, 'feed.yuv');
    await makeFifo(feed);
    const writing = writeMotionFeed(feed, shots(3), FORMAT, { workDir: work });
    writing.catch(() => undefined);
    const read = await readFeed(feed, (frame) => Promise.resolve(frame < 25));
    assert.equal(read, 25);
    await assert.rejects(writing);
    assert.deepEqual(await readdir(work), ['feed.yuv'], 'the prepared third shot was closed too');
  });
});
