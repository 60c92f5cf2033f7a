// Scene segments (docs/revision.md): a composition whose scenes start on whole frames, rendered with a closed GOP
// starting at each scene, is cut by stream copy into one video segment per scene. A revision re-renders only
// the segments that changed, joins them all again by stream copy and muxes a freshly mixed audio track.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deliveryEncodeArgs } from '../ffmpeg/delivery-encode.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';
import { buildAudioMix } from './audio-graph.ts';
import { audioTail } from './compose-command.ts';
import { planInputs } from './compose-inputs.ts';
import { resolveComposeSpec, type ComposeScene, type ComposeSpec } from './compose-spec.ts';
import { planMixGain } from './render-composition.ts';

/** One scene on whole frames: where it starts on the output, how long it lasts and the footage it shows. */
export interface FramedScene {
  startFrame: number;
  frames: number;
  pieces: ComposeScene[];
}

/**
 * Puts scenes (starting at `sceneStarts`, the first at 0) on whole frames of a `videoSec` timeline and hands
 * each the footage pieces (in timeline order) whose middle falls inside it, their lengths rounded to whole
 * frames so the pieces of a scene last exactly its frames. A scene without a piece of its own holds the
 * piece running across it.
 */
export function frameScenes(
  pieces: readonly ComposeScene[],
  sceneStarts: readonly number[],
  videoSec: number,
  fps: number,
): FramedScene[] {
  const totalFrames = Math.max(sceneStarts.length, Math.round(videoSec * fps));
  const bounds = sceneStarts.map((start, i) => (i === 0 ? 0 : Math.round(start * fps)));
  bounds.push(totalFrames);
  // Every scene keeps at least one frame, even when rounding squeezes it.
  for (let i = 1; i < bounds.length; i++) bounds[i] = Math.max(bounds[i]!, bounds[i - 1]! + 1);
  for (let i = bounds.length - 2; i > 0; i--) bounds[i] = Math.min(bounds[i]!, bounds[i + 1]! - 1);
  const placed: { piece: ComposeScene; from: number; to: number }[] = [];
  let at = 0;
  for (const piece of pieces) {
    placed.push({ piece, from: at, to: at + piece.duration });
    at += piece.duration;
  }
  return sceneStarts.map((_, i) => {
    const startFrame = bounds[i]!;
    const frames = bounds[i + 1]! - startFrame;
    const from = startFrame / fps;
    const to = (startFrame + frames) / fps;
    let own = placed.filter((p) => {
      const middle = (p.from + p.to) / 2;
      return middle >= from && (middle < to || i === sceneStarts.length - 1);
    });
    if (own.length === 0) {
      const across = placed.find((p) => p.from < to && p.to > from) ?? placed[placed.length - 1];
      own = across ? [{ ...across, from, to }] : [];
    }
    return { startFrame, frames, pieces: fitPieces(own, frames, fps) };
  });
}

/** Pieces stretched or shrunk in proportion to last exactly `frames`, each a whole number of frames. */
function fitPieces(
  own: readonly { piece: ComposeScene; from: number; to: number }[],
  frames: number,
  fps: number,
): ComposeScene[] {
  const total = own.reduce((sum, p) => sum + (p.to - p.from), 0);
  const out: ComposeScene[] = [];
  let used = 0;
  let elapsed = 0;
  for (const [k, p] of own.entries()) {
    elapsed += p.to - p.from;
    const end = k === own.length - 1 ? frames : Math.round((elapsed / total) * frames);
    const count = end - used;
    if (count > 0) out.push({ ...p.piece, duration: count / fps });
    used = Math.max(used, end);
  }
  return out;
}

/** The same scene at another length: its pieces scaled in proportion, on whole frames. */
export function refitScene(scene: FramedScene, frames: number, fps: number): ComposeScene[] {
  let from = 0;
  const own = scene.pieces.map((piece) => {
    const placed = { piece, from, to: from + piece.duration };
    from += piece.duration;
    return placed;
  });
  return fitPieces(own, frames, fps);
}

/** Cuts the video stream of `videoPath` (stream copy) at `framed`'s scene starts into `dir/seg-NNN.mp4`. */
export async function cutSegments(
  videoPath: string,
  framed: readonly Pick<FramedScene, 'startFrame'>[],
  dir: string,
  run: FfmpegRunOptions = {},
): Promise<string[]> {
  const cuts = framed.slice(1).map((s) => s.startFrame);
  const pattern = join(dir, 'seg-%03d.mp4');
  await runFfmpeg(
    [
      '-y',
      '-i',
      videoPath,
      '-map',
      '0:v',
      '-c',
      'copy',
      '-f',
      'segment',
      '-segment_format',
      'mp4',
      ...(cuts.length > 0 ? ['-segment_frames', cuts.join(',')] : ['-segment_time', '100000']),
      '-reset_timestamps',
      '1',
      pattern,
    ],
    run,
  );
  return framed.map((_, i) => join(dir, `seg-${String(i).padStart(3, '0')}.mp4`));
}

/**
 * The captions of one stretch [fromSec, toSec) of an ASS script, re-timed to start at zero: events ending
 * before it or starting after it are dropped, the others clipped to it. Header and styles are kept as they are.
 */
export function windowAss(ass: string, fromSec: number, toSec: number): string {
  const from = Math.round(fromSec * 100);
  const to = Math.round(toSec * 100);
  const parse = (t: string): number => {
    const [h, m, s] = t.split(':');
    return Math.round((Number(h) * 3600 + Number(m) * 60 + Number(s)) * 100);
  };
  const format = (cs: number): string => {
    const h = Math.floor(cs / 360000);
    const m = Math.floor((cs % 360000) / 6000);
    const s = Math.floor((cs % 6000) / 100);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${h}:${two(m)}:${two(s)}.${two(cs % 100)}`;
  };
  return ass
    .split('\n')
    .flatMap((line) => {
      const match = /^Dialogue: ([^,]*),([^,]*),([^,]*),(.*)$/.exec(line);
      if (!match) return [line];
      const start = parse(match[2]!);
      const end = parse(match[3]!);
      if (end <= from || start >= to) return [];
      const clippedStart = Math.max(start, from) - from;
      const clippedEnd = Math.min(end, to) - from;
      if (clippedEnd <= clippedStart) return [];
      return [`Dialogue: ${match[1]},${format(clippedStart)},${format(clippedEnd)},${match[4]}`];
    })
    .join('\n');
}

/**
 * Joins scene segments (stream copy, concat demuxer) under the composition's sound: the spec's narration and
 * music mixed, ducked and brought to the loudness target exactly as a full render would, into `spec.outputPath`.
 * `spec.scenes` only matter for their own sound; the picture comes from the segments.
 */
export async function joinSegments(
  segments: readonly string[],
  spec: ComposeSpec,
  workDir: string,
  run: FfmpegRunOptions = {},
): Promise<void> {
  const list = join(workDir, 'segments.txt');
  await writeFile(list, segments.map((s) => `file '${s.replace(/'/g, "'\\''")}'\n`).join(''));
  const { gain } = await planMixGain(spec, run);
  const resolved = resolveComposeSpec({ ...spec, loudness: { ...spec.loudness, gain: gain ?? undefined } });
  const inputs = planInputs(resolved, 'audio');
  const mix = buildAudioMix(resolved, inputs);
  const graph = [...(mix?.filters ?? []), audioTail(resolved, mix?.output ?? null)];
  const videoInput = inputs.args.filter((a) => a === '-i').length;
  const { preset, crf, audioBitrateKbps } = resolved.encoding;
  await runFfmpeg(
    [
      '-y',
      ...inputs.args,
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-filter_complex',
      graph.join(';'),
      '-map',
      `${videoInput}:v`,
      '-map',
      '[aout]',
      ...deliveryEncodeArgs({
        preset,
        crf,
        fps: resolved.fps,
        audioBitrateKbps,
        durationSec: resolved.durationSec,
        copyVideo: true,
      }),
      resolved.outputPath,
    ],
    run,
  );
}
