// The one ffmpeg command that renders a clip: cut from the source, reframed, captions burned in, original
// audio brought to the loudness target, H.264/AAC with +faststart, and the poster frame as a second output.
import { coverFilter } from '../compose/video-graph.ts';
import { gainFilter, type LoudnessGain, type LoudnessTarget } from '../compose/loudness-plan.ts';
import { escapeFilterValue, num } from '../ffmpeg/filter-escape.ts';
import type { CropSegment, ReframePlan } from './reframe.ts';
import { deliveryEncodeArgs } from '../ffmpeg/delivery-encode.ts';

/** Highest output frame rate: 60 fps sources are halved, which halves the encode. */
export const MAX_FPS = 30;
/** Fade at both ends of the audio (s): the cut lies in silence, this only removes a click from room noise. */
const EDGE_FADE_SEC = 0.03;

export interface ClipRenderSpec {
  sourcePath: string;
  startSec: number;
  durationSec: number;
  sourceFps: number;
  width: number;
  height: number;
  plan: ReframePlan;
  /** ASS captions on the clip's own timeline, or null for none. */
  assPath: string | null;
  fontsDir?: string;
  /** Gain stage that brings the clip's audio to the target (null: leave the level as it is). */
  gain: LoudnessGain | null;
  loudness: LoudnessTarget;
  preset: string;
  crf: number;
  audioBitrateKbps: number;
  outputPath: string;
  posterPath: string;
  /** Time in the clip (s) of the poster frame. */
  posterAtSec: number;
}

export function outputFps(sourceFps: number): number {
  return sourceFps > 0 && sourceFps <= MAX_FPS + 0.5 ? sourceFps : MAX_FPS;
}

/** `if(lt(t,T1),O0,if(lt(t,T2),O1,O2))`: the crop offset of each segment from its start time. */
export function segmentExpression(segments: readonly CropSegment[]): string {
  const [first, ...rest] = segments;
  if (!first) return '0';
  if (rest.length === 0) return String(first.offset);
  const next = rest[0]!;
  return `if(lt(t\\,${num(next.startSec, 3)})\\,${first.offset}\\,${segmentExpression(rest)})`;
}

/** Blur radius for the background of a fitted picture, kept within what boxblur allows for the chroma planes. */
function blurRadius(width: number, height: number): number {
  return Math.max(1, Math.min(10, Math.floor(Math.min(width, height) / 4) - 1));
}

/** Filter chains from `[0:v]` to the reframed picture labelled `[framed]`. */
export function reframeFilters(
  spec: Pick<ClipRenderSpec, 'plan' | 'width' | 'height' | 'sourceFps'>,
): string[] {
  const { width: w, height: h, plan } = spec;
  const fps = spec.sourceFps > MAX_FPS + 0.5 ? `fps=${MAX_FPS},` : '';
  switch (plan.mode) {
    case 'scale':
      return [`[0:v]${fps}${coverFilter(w, h)}[framed]`];
    case 'crop': {
      const offset = segmentExpression(plan.segments);
      const x = plan.axis === 'x' ? offset : '0';
      const y = plan.axis === 'y' ? offset : '0';
      return [
        `[0:v]${fps}crop=w=${plan.cropWidth}:h=${plan.cropHeight}:x=${x}:y=${y},` +
          `scale=${w}:${h}:flags=bicubic,format=yuv420p,setsar=1[framed]`,
      ];
    }
    case 'fit': {
      // The background is blurred at an eighth of the size: the blur costs almost nothing there.
      const bw = Math.max(16, 2 * Math.round(w / 16));
      const bh = Math.max(16, 2 * Math.round(h / 16));
      return [
        `[0:v]${fps}split=2[fitfg][fitbg]`,
        `[fitbg]scale=${bw}:${bh}:force_original_aspect_ratio=increase,crop=${bw}:${bh},` +
          `boxblur=${blurRadius(bw, bh)}:2,eq=brightness=-0.08:saturation=0.85,scale=${w}:${h},setsar=1[bgblur]`,
        `[fitfg]scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1[fgfit]`,
        `[bgblur][fgfit]overlay=x=(W-w)/2:y=(H-h)/2,format=yuv420p[framed]`,
      ];
    }
  }
}

export function buildClipGraph(spec: ClipRenderSpec): string {
  const filters = reframeFilters(spec);
  let current = 'framed';
  if (spec.assPath) {
    const fontsDir = spec.fontsDir ? `:fontsdir=${escapeFilterValue(spec.fontsDir)}` : '';
    filters.push(`[${current}]subtitles=filename=${escapeFilterValue(spec.assPath)}${fontsDir}[captioned]`);
    current = 'captioned';
  }
  filters.push(`[${current}]split=2[vout][posterin]`);
  filters.push(`[posterin]select='gte(t\\,${num(spec.posterAtSec, 3)})'[poster]`);
  const gain = spec.gain ? `,${gainFilter(spec.gain, spec.loudness)}` : '';
  const d = spec.durationSec;
  filters.push(
    `[0:a:0]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo${gain},` +
      `afade=t=in:d=${num(EDGE_FADE_SEC)},afade=t=out:st=${num(Math.max(0, d - EDGE_FADE_SEC), 3)}:d=${num(EDGE_FADE_SEC)}[aout]`,
  );
  return filters.join(';');
}

/** Arguments for runFfmpeg: input cut with -ss/-t (accurate: frames before the cut are decoded and dropped). */
export function buildClipArgs(spec: ClipRenderSpec): string[] {
  const fps = outputFps(spec.sourceFps);
  return [
    '-y',
    '-ss',
    num(spec.startSec, 3),
    '-t',
    num(spec.durationSec, 3),
    '-i',
    spec.sourcePath,
    '-filter_complex',
    buildClipGraph(spec),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    ...deliveryEncodeArgs({
      preset: spec.preset,
      crf: spec.crf,
      fps,
      audioBitrateKbps: spec.audioBitrateKbps,
      durationSec: spec.durationSec,
    }),
    spec.outputPath,
    '-map',
    '[poster]',
    '-frames:v',
    '1',
    '-q:v',
    '3',
    '-update',
    '1',
    spec.posterPath,
  ];
}
