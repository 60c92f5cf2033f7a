import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extractSourceAudio } from '../../src/media/clips/source-audio.ts';
import { measureMotion } from '../../src/media/clips/motion-analysis.ts';
import { findSpeakingFace, FACE_SAMPLE_FPS } from '../../src/media/clips/speaking-face.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { prepareTwoSpeakers, renderTwoSpeakers } from '../../test/support/two-speakers-fixture.ts';
import { timed, type Timing } from '../support/cpu-time.ts';
import { describeLoad, watchMachineLoad } from '../support/machine-load.ts';

// bench/clips/faces: what the speaking-face reframe costs per minute of source. The source is the test fixture
// made longer: two people side by side (1280×720), one speaking; a faceless source of the same length shows
// the cost of the fallback's check. The motion analysis of the same stretch is timed for comparison.
//
//   node --import tsx bench/clips/faces.ts [--seconds 60] [--keep DIR]
//
// Making the sources is not timed. The vision runtime is started (models loaded) before timing, as in a
// worker that has clipped once.

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, keep: { type: 'string' } },
});

const SENTENCES = [
  'Hello there, my name is Sam and I look after the money.',
  'Today we look at how savings grow over the years.',
  'Small amounts put away every month add up faster than you think.',
  'Interest is paid on the interest, and that is the whole trick.',
  'Start early, keep going, and do not touch it.',
];
const SOURCE = { width: 1280, height: 720 };
const TARGET = { width: 1080, height: 1920 };
const fmt = (x: number, digits = 1) => x.toFixed(digits);
const perMinute = (t: Timing, sec: number) =>
  `${fmt((t.wall * 60) / sec)} s wall, ${fmt(((t.childCpu + t.nodeCpu) * 60) / sec)} s CPU per minute of source`;

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-faces-')));
await mkdir(dir, { recursive: true });
try {
  const target = Number(values.seconds);
  const sentences: string[] = [];
  // Each sentence and its pause take about 6 s.
  while (sentences.length * 6 < target) sentences.push(SENTENCES[sentences.length % SENTENCES.length]!);
  const fixture = await prepareTwoSpeakers(dir, sentences);
  const source = await renderTwoSpeakers(fixture, 'right', dir);
  const durationSec = fixture.narration.durationSec;
  const audio = await extractSourceAudio(source, join(dir, 'speech.wav'));
  const faceless = join(dir, 'faceless.mp4');
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=25:duration=${durationSec}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    faceless,
  ]);
  const input = {
    source: SOURCE,
    target: TARGET,
    startSec: 0,
    durationSec,
    loudness: audio.loudness,
    framesPath: join(dir, 'frames.rgb'),
  };
  // Warm-up: loads the WASM backend and the face models.
  await findSpeakingFace({ ...input, sourcePath: source, durationSec: 2 });

  const load = watchMachineLoad();
  const faces = await timed(() => findSpeakingFace({ ...input, sourcePath: source }));
  const none = await timed(() => findSpeakingFace({ ...input, sourcePath: faceless }));
  const motion = await timed(() => measureMotion(source, 0, durationSec, SOURCE, join(dir, 'motion.gray')));
  const loadReport = load.finish();
  const r = faces.result;
  console.log(
    `source: ${fmt(durationSec)} s, ${SOURCE.width}×${SOURCE.height}, two faces, right one speaking`,
  );
  console.log(
    `speaking face: ${r.found ? `found, ${r.speakers.length} speaker segment(s), first face at x=${r.speakers[0]!.face.x}, r=${r.speakers[0]!.correlation}` : `not found (${r.reason})`}; ` +
      `${r.sampledFrames} frames at ${FACE_SAMPLE_FPS} fps: ${perMinute(faces.timing, durationSec)} ` +
      `(${fmt(faces.timing.wall / r.sampledFrames, 2)} s per frame)`,
  );
  console.log(
    `faceless source: ${none.result.found ? 'found?' : none.result.reason}, ${none.result.sampledFrames} frames looked at: ` +
      `${fmt(none.timing.wall, 2)} s wall per clip`,
  );
  console.log(`motion analysis (fallback): ${perMinute(motion.timing, durationSec)}`);
  // CPU seconds hold under load; wall times only on a quiet run.
  console.log(describeLoad(loadReport));
} finally {
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
