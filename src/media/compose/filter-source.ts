// A video the compose reads as part of its one ffmpeg graph: a presenter from the local talking-head engine
// (its inputs and filter chains joined into the compose's graph, so nothing is encoded in between), or a
// hosted engine's MP4 through videoFileSource.
import { num } from '../ffmpeg/filter-escape.ts';
import { probeMedia } from '../ffmpeg/probe.ts';

export interface FilterSource {
  /** ffmpeg input argument lists, one per input (each ends with `-i <path>`). */
  inputs: string[][];
  /**
   * Filter chains that turn the inputs (at the given input indexes, in the order of `inputs`) into one stream
   * labelled `[out]`: width×height, fps, yuv420p (yuva420p when hasAlpha), starting at time 0. Labels of
   * intermediate streams should start with the given `out` (e.g. `[${out}mask]`) so they cannot clash with
   * the compose's own.
   */
  filter(inputIndexes: number[], out: string): string[];
  width: number;
  height: number;
  fps: number;
  durationSec: number;
  /** The stream carries a matte (the person cut out): layouts draw it over the B-roll without a frame. */
  hasAlpha: boolean;
}

export interface VideoFileSourceOptions {
  /** The size the file is brought to (cropped to that shape around its centre, then scaled). */
  width: number;
  height: number;
  fps: number;
  /** Seconds into the file where the source starts; default 0. */
  inPoint?: number;
  /** Seconds of the file used; default what the file has after inPoint (probed). */
  durationSec?: number;
}

/** The largest centred crop of the frame's shape, scaled to it (scaler touches only kept pixels). */
export function coverTo(width: number, height: number, pixFmt: 'yuv420p' | 'yuva420p'): string {
  return (
    `crop=w=min(iw\\,ih*${width}/${height}):h=min(ih\\,iw*${height}/${width}),` +
    `scale=${width}:${height},format=${pixFmt},setsar=1`
  );
}

/**
 * A video file as a FilterSource (e.g. a hosted talking-photo engine's MP4): seek and length applied while
 * demuxing, the frame rate made the compose's, the picture cover-cropped to the size. Its sound is not read:
 * the compose mixes the narration from its own file.
 */
export async function videoFileSource(path: string, options: VideoFileSourceOptions): Promise<FilterSource> {
  const { width, height, fps } = options;
  if (!(
    Number.isInteger(width) &&
    width > 0 &&
    width % 2 === 0 &&
    Number.isInteger(height) &&
    height > 0 &&
    height % 2 === 0
  ))
    throw new RangeError('videoFileSource: width and height must be positive even integers');
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError('videoFileSource: fps must be > 0');
  const inPoint = options.inPoint ?? 0;
  let durationSec = options.durationSec;
  if (durationSec === undefined) {
    const info = await probeMedia(path);
    if (!info.video) throw new RangeError(`videoFileSource: ${path} has no video stream`);
    durationSec = Math.max(0, info.durationSec - inPoint);
  }
  if (!(Number.isFinite(durationSec) && durationSec > 0))
    throw new RangeError('videoFileSource: the source has no duration after inPoint');
  const seek = inPoint > 0 ? ['-ss', num(inPoint)] : [];
  const length = durationSec;
  return {
    inputs: [[...seek, '-t', num(length), '-i', path]],
    filter: ([input], out) => [`[${input}:v]fps=${num(fps)},${coverTo(width, height, 'yuv420p')}[${out}]`],
    width,
    height,
    fps,
    durationSec: length,
    hasAlpha: false,
  };
}
