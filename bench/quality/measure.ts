// The cost of the quality gate's measurement (docs/quality.md) on a delivered video, against the render that
// made it and against plain decoding.
//
//   node --import tsx bench/quality/measure.ts [--seconds 30] [--width 1080] [--height 1920]
//
// A composition with moving test footage, a spoken narration (espeak-ng), a music tone and highlight captions
// is rendered with the product's settings (libx264 veryfast); then, on its file:
//   measure          measureDelivery: ffprobe + the one pass (ebur128, blackdetect + freezedetect on a 10 fps,
//                    480-line copy, the audio envelopes, the captions drawn alone with their bounding box)
//   full-size detect blackdetect + freezedetect on every frame at full size, alone (what the reduced copy saves)
//   decode only      decoding the file and throwing the frames away (the floor of any pass over it)
// Wall time depends on other load on the machine; the ffmpeg CPU seconds (finished children) are printed too.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAss } from '../../src/media/captions/build-ass.ts';
import { highlightPreset } from '../../src/media/captions/caption-presets.ts';
import { renderComposition } from '../../src/media/compose/render-composition.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { measureDelivery } from '../../src/media/quality/measure-delivery.ts';
import { judgeQuality } from '../../src/media/quality/quality-gate.ts';
import type { WordTiming } from '../../src/media/types.ts';
import { childCpuSeconds } from '../support/cpu-time.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    width: { type: 'string', default: '1080' },
    height: { type: 'string', default: '1920' },
  },
});
const seconds = Number(values.seconds);
const width = Number(values.width);
const height = Number(values.height);

async function timed(label: string, work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const wallStart = performance.now();
  const cpuStart = childCpuSeconds();
  await work();
  const timing = { wall: (performance.now() - wallStart) / 1000, cpu: childCpuSeconds() - cpuStart };
  console.log(
    `  ${label.padEnd(18)} wall ${timing.wall.toFixed(2).padStart(6)} s   cpu ${timing.cpu.toFixed(2).padStart(6)} s`,
  );
  return timing;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-quality-'));
try {
  const at = (name: string) => join(dir, name);
  const text = Array.from(
    { length: Math.ceil(seconds / 4) },
    (_, i) => `Sentence ${i + 1} of the narration.`,
  );
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', at('speech.wav'), text.join(' ')]);
  for (const [name, graph] of [
    ['a.mp4', `testsrc2=s=720x1280:r=30:d=${seconds}`],
    ['b.mp4', `gradients=s=720x1280:r=30:d=${seconds}:speed=0.02`],
  ] as const)
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', graph, '-c:v', 'libx264', '-preset', 'ultrafast', at(name)]);
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', `sine=f=220:d=${seconds}`, at('music.wav')]);
  const words: WordTiming[] = Array.from({ length: Math.floor(seconds / 0.4) }, (_, i) => ({
    word: `w${i}`,
    start: i * 0.4,
    end: i * 0.4 + 0.3,
  }));
  await writeFile(at('captions.ass'), buildAss(words, highlightPreset(), { width, height }));
  const half = seconds / 2;
  const spec = {
    outputPath: at('video.mp4'),
    width,
    height,
    durationSec: seconds,
    scenes: [
      { path: at('a.mp4'), inPoint: 0, duration: half },
      { path: at('b.mp4'), inPoint: 0, duration: half },
    ],
    narration: { path: at('speech.wav') },
    music: { path: at('music.wav'), volume: 0.3 },
    ass: { path: at('captions.ass') },
    encoding: { preset: 'veryfast' },
  };
  console.log(`${seconds} s at ${width}x${height}, 30 fps:`);
  const render = await timed('render', () => renderComposition(spec));
  let report: ReturnType<typeof judgeQuality> | undefined;
  const measure = await timed('measure', async () => {
    const measured = await measureDelivery({
      videoPath: spec.outputPath,
      narration: { path: spec.narration.path, words },
      captions: { assPath: spec.ass.path },
    });
    report = judgeQuality(measured, { plannedSec: seconds });
  });
  await timed('full-size detect', () =>
    runFfmpeg([
      '-i',
      spec.outputPath,
      '-an',
      '-vf',
      'blackdetect=d=0.3:pix_th=0.1,freezedetect=n=-60dB:d=0.3',
      '-f',
      'null',
      '-',
    ]),
  );
  const decode = await timed('decode only', () => runFfmpeg(['-i', spec.outputPath, '-f', 'null', '-']));
  console.log(
    `  measure / render: wall ${(measure.wall / render.wall).toFixed(2)}, cpu ${(measure.cpu / render.cpu).toFixed(2)}; ` +
      `measure / decode: cpu ${(measure.cpu / decode.cpu).toFixed(2)}`,
  );
  console.log(`  report: passed ${report?.passed}, failed [${report?.failed.join(', ')}]`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
