import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cutClips } from '../../src/media/clips/clip-pipeline.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { PocketsphinxRecognizer } from '../../src/media/speech/pocketsphinx-recognizer.ts';
import { makeLongVideo } from '../../test/support/long-video-fixture.ts';
import { childCpuSeconds, ownCpuSeconds } from '../support/cpu-time.ts';

// bench/clips: time to deliver clips from a long video, the way clip mode runs the engine: a 10-minute
// 1080p narrated source (espeak-ng speech over generated footage with a moving subject), the local
// pocketsphinx recognizer, 5 clips at 9:16 with captions and the production x264 preset.
//
//   node --import tsx bench/clips/run.ts [--minutes 10] [--clips 5] [--preset veryfast] [--keep DIR]
//
// Making the source is not timed (it is cached under .test-cache/long-video after the first run). The target
// is a total under 2× the source duration on the 2-core development machine. Wall times depend on other
// load, so the CPU seconds of the children (ffmpeg, pocketsphinx) and of Node are printed too.

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    clips: { type: 'string', default: '5' },
    preset: { type: 'string', default: 'veryfast' },
    keep: { type: 'string' },
  },
});

const fmt = (x: number, digits = 1) => x.toFixed(digits);

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-clips-')));
await mkdir(dir, { recursive: true });
try {
  const madeAt = performance.now();
  const video = await makeLongVideo(dir, {
    minDurationSec: Number(values.minutes) * 60,
    width: 1920,
    height: 1080,
    fps: 30,
    crf: 23,
  });
  const info = await probeMedia(video.path);
  console.log(
    `source: ${fmt(info.durationSec)} s, ${info.video?.width}×${info.video?.height} ${fmt(info.video?.fps ?? 0, 2)} fps ` +
      `${info.video?.codec}, ${fmt(info.sizeBytes / 1e6)} MB (ready in ${fmt((performance.now() - madeAt) / 1000)} s)`,
  );

  const load = loadavg().map((l) => fmt(l, 2));
  const child = childCpuSeconds();
  const own = ownCpuSeconds();
  const started = performance.now();
  const result = await cutClips({
    sourcePath: video.path,
    workDir: join(dir, 'work'),
    clipCount: Number(values.clips),
    aspectRatio: '9:16',
    captions: true,
    recognizer: new PocketsphinxRecognizer(),
    preset: values.preset,
  });
  const wall = (performance.now() - started) / 1000;
  const childCpu = childCpuSeconds() - child;
  const nodeCpu = ownCpuSeconds() - own;

  const s = result.stageSeconds;
  const clipSec = result.clips.reduce((sum, c) => sum + c.durationSec, 0);
  console.log(
    `load average before: ${load.join(' ')}, after: ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );
  console.log(
    `total ${fmt(wall)} s for ${result.clips.length} clips (${fmt(clipSec)} s of clips) from ${fmt(result.sourceDurationSec)} s: ` +
      `ratio ${fmt(wall / result.sourceDurationSec, 2)} (target < 2)`,
  );
  console.log(
    `stages: audio ${fmt(s.audio)} s, transcribe ${fmt(s.transcribe)} s, moments ${fmt(s.moments, 2)} s, ` +
      `reframe analysis ${fmt(s.motion)} s, render ${fmt(s.encode)} s`,
  );
  console.log(
    `CPU: children ${fmt(childCpu)} s, node ${fmt(nodeCpu)} s (${fmt((childCpu + nodeCpu) / wall, 2)} cores busy)`,
  );
  for (const c of result.clips) {
    console.log(
      `  #${c.index + 1} ${fmt(c.startSec)}–${fmt(c.endSec)} s (${fmt(c.durationSec)} s) score ${c.viralScore} ` +
        `${c.reframe.method}${c.reframe.fallbackReason ? ` (${c.reframe.fallbackReason})` : ''} ` +
        `${c.width}×${c.height} "${c.title}"`,
    );
  }
} finally {
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
