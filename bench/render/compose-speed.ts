// Times a full composition against a bare encode of the same size, length and codec settings.
//
//   node --import tsx bench/render/compose-speed.ts [--seconds 30] [--width 1080]
//        [--height 1920] [--preset veryfast] [--crf 22] [--keep DIR]
//
// Two scenarios, each rendered with everything on (3 scenes with audio, narration, ducked music,
// highlight captions, logo, watermark, progress bar, two-pass loudness):
//   flat: sources are flat colour clips and a flat image, compared with a bare `color` source encode;
//         the ratio is the cost of the graph itself.
//   busy: sources are moving test patterns (testsrc2, gradients) and a detailed still, compared with a
//         bare `testsrc2` encode; closer to real footage, where the encoder dominates.
// Wall time depends on other load on the machine, so the ffmpeg CPU time (user+sys of finished child
// processes, from /proc/self/stat) is printed too.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAss } from '../../src/media/captions/build-ass.ts';
import { highlightPreset } from '../../src/media/captions/caption-presets.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import type { WordTiming } from '../../src/media/types.ts';
import type { ComposeSpec } from '../../src/media/compose/compose-spec.ts';
import { renderComposition } from '../../src/media/compose/render-composition.ts';
import { childCpuSeconds } from '../support/cpu-time.ts';
import { deliveryEncodeArgs } from '../../src/media/ffmpeg/delivery-encode.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    width: { type: 'string', default: '1080' },
    height: { type: 'string', default: '1920' },
    preset: { type: 'string', default: 'veryfast' },
    crf: { type: 'string', default: '22' },
    keep: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const width = Number(values.width);
const height = Number(values.height);
const preset = values.preset;
const crf = Number(values.crf);

interface Timing {
  wall: number;
  cpu: number;
}

async function timed(label: string, work: () => Promise<unknown>): Promise<Timing> {
  const wallStart = performance.now();
  const cpuStart = childCpuSeconds();
  await work();
  const timing = { wall: (performance.now() - wallStart) / 1000, cpu: childCpuSeconds() - cpuStart };
  console.log(
    `  ${label.padEnd(30)} wall ${timing.wall.toFixed(2).padStart(6)} s   cpu ${timing.cpu.toFixed(2).padStart(6)} s`,
  );
  return timing;
}

function syntheticWords(duration: number): WordTiming[] {
  const vocabulary = ['this', 'is', 'how', 'the', 'story', 'begins', 'and', 'it', 'keeps', 'going.'];
  const words: WordTiming[] = [];
  for (let t = 0.3, i = 0; t + 0.3 < duration; t += 0.42, i++) {
    words.push({ word: vocabulary[i % vocabulary.length] ?? 'word', start: t, end: t + 0.32 });
  }
  return words;
}

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-speed-')));
const src = (name: string) => join(dir, name);
const third = seconds / 3;

const clip = (name: string, source: string) =>
  runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-f',
    'lavfi',
    '-i',
    'sine=f=330',
    '-t',
    String(third + 1),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    src(name),
  ]);
const still = (name: string, source: string) =>
  runFfmpeg(['-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', src(name)]);

const codec = deliveryEncodeArgs({
  preset,
  crf,
  fps: 30,
  forceFps: true,
  audioBitrateKbps: 160,
  durationSec: seconds,
});
const bare = (source: string, out: string) =>
  runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=48000:cl=stereo',
    ...codec,
    src(out),
  ]);

function composeSpec(prefix: string): ComposeSpec {
  return {
    outputPath: src(`${prefix}-composed.mp4`),
    width,
    height,
    durationSec: seconds,
    scenes: [
      { path: src(`${prefix}-a.mp4`), inPoint: 0.5, duration: third, hasAudio: true },
      { path: src(`${prefix}-still.png`), inPoint: 0, duration: third },
      { path: src(`${prefix}-b.mp4`), inPoint: 0.5, duration: third },
    ],
    narration: { path: src('narration.wav'), tempo: 1.05 },
    music: { path: src('music.wav'), volume: 0.3 },
    ass: { path: src('captions.ass'), fontsDir: '/usr/share/fonts/truetype/dejavu' },
    logo: { path: src('logo.png') },
    watermark: { text: 'Made with Reelsmith' },
    progressBar: { position: 'bottom', color: '#FFD60A' },
    encoding: { preset, crf },
  };
}

try {
  console.log(`generating sources in ${dir}`);
  await clip('flat-a.mp4', 'color=c=0x2A4D69:s=1920x1080:r=30');
  await clip('flat-b.mp4', 'color=c=0x6B2D5C:s=1920x1080:r=30');
  await still('flat-still.png', 'color=c=0x4B86B4:s=1600x1200');
  await clip('busy-a.mp4', 'testsrc2=s=1920x1080:r=30');
  await clip('busy-b.mp4', 'gradients=s=1920x1080:r=30:speed=0.02:n=3');
  await still('busy-still.png', 'testsrc=s=1600x1200');
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:d=${seconds - 1}`,
    '-af',
    'volume=0.3',
    src('narration.wav'),
  ]);
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=f=220:d=7', src('music.wav')]);
  await still('logo.png', 'color=c=0xFFD60A:s=400x200,format=rgba');
  await writeFile(
    src('captions.ass'),
    buildAss(syntheticWords(seconds), highlightPreset(), { width, height }),
  );

  console.log(`${seconds} s at ${width}x${height}, libx264 ${preset} crf ${crf}`);
  const size = `s=${width}x${height}:r=30`;
  console.log('flat sources');
  const flatBare = await timed('bare encode (color)', () =>
    bare(`color=c=0x336699:${size}`, 'bare-color.mp4'),
  );
  const flat = await timed('compose (measure + render)', () => renderComposition(composeSpec('flat')));
  console.log('busy sources');
  const busyBare = await timed('bare encode (testsrc2)', () => bare(`testsrc2=${size}`, 'bare-testsrc2.mp4'));
  const busy = await timed('compose (measure + render)', () => renderComposition(composeSpec('busy')));
  const ratio = (a: Timing, b: Timing) =>
    `wall ${(a.wall / b.wall).toFixed(2)}  cpu ${(a.cpu / b.cpu).toFixed(2)}`;
  console.log(`ratio flat compose / bare color     ${ratio(flat, flatBare)}`);
  console.log(`ratio busy compose / bare testsrc2  ${ratio(busy, busyBare)}`);
  console.log(`ratio busy compose / bare color     ${ratio(busy, flatBare)}`);
} finally {
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
