// ffmpeg command lines of a composition: the audio-only loudness measurement and the single-graph render.
import { num } from '../ffmpeg/filter-escape.ts';
import { buildAudioMix } from './audio-graph.ts';
import { planInputs } from './compose-inputs.ts';
import { resolveComposeSpec, type ComposeSpec, type ResolvedSpec } from './compose-spec.ts';
import type { LayoutAssets } from './layout-assets.ts';
import { gainFilter } from './loudness-plan.ts';
import { buildVideoGraph } from './video-graph.ts';
import { deliveryEncodeArgs } from '../ffmpeg/delivery-encode.ts';

export interface FfmpegCommand {
  args: string[];
}

/**
 * Audio-only pass: renders the mix (through the spec's gain stage, if it has one) into ebur128 and the
 * null muxer; parseEbur128Summary reads the result. Null when the composition has no sound source.
 */
export function buildAudioMeasureCommand(spec: ComposeSpec): FfmpegCommand | null {
  const resolved = resolveComposeSpec(spec);
  const inputs = planInputs(resolved, 'audio');
  const mix = buildAudioMix(resolved, inputs);
  if (!mix) return null;
  const { gain } = resolved.loudness;
  const stage = gain ? `${gainFilter(gain, resolved.loudness)},` : '';
  const graph = [...mix.filters, `[${mix.output}]${stage}ebur128=peak=true[measured]`];
  return {
    args: [...inputs.args, '-filter_complex', graph.join(';'), '-map', '[measured]', '-f', 'null', '-'],
  };
}

const OPENING_FADE = 'afade=t=in:d=0.02';

/** The mix's last stage into `[aout]`: the planned gain, else single-pass loudnorm, else silence. */
export function audioTail(resolved: ResolvedSpec, mixOutput: string | null): string {
  if (mixOutput === null)
    return `anullsrc=r=48000:cl=stereo,atrim=duration=${num(resolved.durationSec)}[aout]`;
  const { gain, integratedLufs, truePeakDb } = resolved.loudness;
  // The limiter lets the first milliseconds through while its look-ahead fills (a bed's opening hit reached
  // −0.5 dBFS under a −2.5 dB ceiling): a 20 ms fade-in keeps the opening under it.
  if (gain) return `[${mixOutput}]${gainFilter(gain, resolved.loudness)},${OPENING_FADE}[aout]`;
  // Unmeasured: loudnorm's single-pass dynamic mode (about ±1 LU); it runs at 192 kHz, hence the resample.
  return `[${mixOutput}]loudnorm=I=${num(integratedLufs)}:TP=${num(truePeakDb)},aresample=48000[aout]`;
}

export interface ComposeCommandOptions {
  /** FIFO the motion engine writes the moving scenes' frames to; required when a scene has motion. */
  motionFeed?: string;
  /**
   * Pictures drawn for a presenter layout or an outro (prepareLayoutAssets); required when the composition has
   * a bubble, a logo host or an outro.
   */
  assets?: LayoutAssets;
  /**
   * A filter chain run on a copy of the finished picture, into the null muxer: measurements (the quality
   * gate's black and freeze detection) made on the frames as they are encoded, without decoding the MP4 again.
   */
  tap?: string;
}

/** JPEG quality of the poster (ffmpeg's -q:v, 2 = best). */
const POSTER_QUALITY = '2';

/** Builds the one ffmpeg invocation that renders the finished MP4. */
export function buildComposeCommand(spec: ComposeSpec, options: ComposeCommandOptions = {}): FfmpegCommand {
  const resolved = resolveComposeSpec(spec);
  const inputs = planInputs(resolved, 'video', options.motionFeed, options.assets);
  const video = buildVideoGraph(resolved, inputs, options.assets);
  const mix = buildAudioMix(resolved, inputs);
  const graph = [...video.filters, ...(mix?.filters ?? []), audioTail(resolved, mix?.output ?? null)];
  // The poster and the tap are further outputs of this one run, fed by a split of the finished picture.
  const extraOutputs: string[] = [];
  const branches: string[] = [];
  if (options.tap !== undefined) {
    branches.push('vtapin');
    graph.push(`[vtapin]${options.tap}[vtap]`);
    extraOutputs.push('-map', '[vtap]', '-t', num(resolved.durationSec, 3), '-f', 'null', '-');
  }
  if (resolved.poster) {
    const { frame, path } = resolved.poster;
    branches.push('vposterin');
    graph.push(`[vposterin]trim=start_frame=${frame}:end_frame=${frame + 1}[vposter]`);
    extraOutputs.push('-map', '[vposter]', '-frames:v', '1', '-q:v', POSTER_QUALITY, '-update', '1', path);
  }
  let videoOut = video.output;
  if (branches.length > 0) {
    graph.push(
      `[${video.output}]split=${branches.length + 1}[vout]${branches.map((b) => `[${b}]`).join('')}`,
    );
    videoOut = 'vout';
  }
  const { preset, crf, audioBitrateKbps, threads, keyframeFrames } = resolved.encoding;
  return {
    args: [
      '-y',
      ...inputs.args,
      '-filter_complex',
      graph.join(';'),
      '-map',
      `[${videoOut}]`,
      '-map',
      '[aout]',
      ...deliveryEncodeArgs({
        preset,
        crf,
        fps: resolved.fps,
        forceFps: true,
        threads,
        audioBitrateKbps,
        durationSec: resolved.durationSec,
        ...(keyframeFrames ? { keyframeFrames } : {}),
      }),
      resolved.outputPath,
      ...extraOutputs,
    ],
  };
}
