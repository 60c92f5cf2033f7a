// ffmpeg's side of a talking head: concat-demuxer playlists that hold each patch picture for its frames, and
// the filter chains that loop the base, overlay the mouth and eye patches and move the frame.
import { num } from '../ffmpeg/filter-escape.ts';
import type { Size } from './framing.ts';
import { motionFilters, type HeadMotion } from './head-motion.ts';
import type { Run } from './mouth-track.ts';

/**
 * An ffconcat playlist showing `files[state]` for each run's frames. Every entry is told the frame rate, so
 * its timestamps count frames exactly (an image's default is 25 fps, which would round every change).
 * File names are resolved next to the playlist.
 */
export function ffconcatPlaylist<S extends string>(
  runs: readonly Run<S>[],
  files: Readonly<Record<S, string>>,
  fps: number,
): string {
  const lines = ['ffconcat version 1.0'];
  for (const run of runs) {
    const file = files[run.state];
    if (!/^[\w.-]+$/.test(file))
      throw new Error(`playlist entry ${JSON.stringify(file)} is not a plain file name`);
    lines.push(`file ${file}`, `option framerate ${num(fps)}`, `duration ${num(run.frames / fps, 9)}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface TalkingHeadGraph {
  frame: Size & { fps: number };
  frameCount: number;
  mouthAt: { x: number; y: number };
  eyesAt: { x: number; y: number };
  motion: HeadMotion;
  hasAlpha: boolean;
}

/**
 * Filter chains for inputs [base picture, mouth playlist, eye playlist]: the base converted once and repeated
 * `frameCount` times at the frame rate, both patch streams overlaid (each holds its last picture), then the
 * head motion, which also brings the base's middle down to the frame's size.
 */
export function talkingHeadFilters(g: TalkingHeadGraph, inputs: readonly number[], out: string): string[] {
  if (inputs.length !== 3) throw new Error(`a talking head reads 3 inputs, got ${inputs.length}`);
  const [base, mouth, eyes] = inputs;
  const format = g.hasAlpha ? 'yuva420p' : 'yuv420p';
  const label = (name: string) => `[${out}_${name}]`;
  const overlay = (at: { x: number; y: number }) => `overlay=x=${at.x}:y=${at.y}:eof_action=repeat`;
  return [
    `[${base}:v]format=${format},loop=loop=${g.frameCount - 1}:size=1,settb=1/${num(g.frame.fps)},setpts=N${label('base')}`,
    `[${mouth}:v]format=yuva420p${label('mouth')}`,
    `[${eyes}:v]format=yuva420p${label('eyes')}`,
    `${label('base')}${label('mouth')}${overlay(g.mouthAt)}${label('talking')}`,
    `${label('talking')}${label('eyes')}${overlay(g.eyesAt)},${motionFilters(g.motion, g.frame)},setsar=1,format=${format}[${out}]`,
  ];
}
