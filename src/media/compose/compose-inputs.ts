// The ffmpeg input list of a composition and where each source lands in it.
import { num } from '../ffmpeg/filter-escape.ts';
import { bedInputArgs } from '../music/bed-graph.ts';
import { brollSize, type ResolvedScene, type ResolvedSpec } from './compose-spec.ts';
import { needsLayoutAssets, type LayoutAssets } from './layout-assets.ts';

export interface MusicInputs {
  /** The file played round and round: the music given, or a library bed's loop. */
  loop: number;
  /** A library bed's intro and outro; null for music that only loops. */
  bed: { intro: number; outro: number } | null;
}

export interface InputPlan {
  args: string[];
  /**
   * Input index per scene, null where this pass does not read the scene's file (a moving scene's file is
   * read only for its sound).
   */
  scenes: (number | null)[];
  /** Input whose video each scene shows: its own, or for a moving scene the motion feed. */
  sceneVideo: (number | null)[];
  /** The raw-frame input of the moving scenes (see motionFeedArgs), null without one. */
  motionFeed: number | null;
  narration: number | null;
  music: MusicInputs | null;
  logo: number | null;
  /** The presenter source's inputs, in the order of its `inputs`; null without one. */
  presenter: number[] | null;
  /** The prepared pictures of the layout and the outro (see layout-assets.ts). */
  bubbleMask: number | null;
  bubbleRing: number | null;
  hostImage: number | null;
  hostGlow: number | null;
  hostUrl: number | null;
  outro: number | null;
}

/** Input options for one scene: seek and length are applied while demuxing, so no frame is decoded twice. */
export function sceneInputArgs(scene: ResolvedScene, fps: number): string[] {
  // A still is decoded once; the graph repeats the scaled frame (decoding a PNG per frame costs more).
  if (scene.kind === 'image') return ['-framerate', num(fps), '-i', scene.path];
  const seek = scene.inPoint > 0 ? ['-ss', num(scene.inPoint)] : [];
  return [...seek, '-t', num(scene.duration), '-i', scene.path];
}

/**
 * The input carrying every moving scene's frames, back to back in timeline order, as raw yuv420p at the
 * size scenes are drawn at (the frame, or a layout's B-roll region) and the output rate. A short queue: the
 * frames are large and the feed is read in step with the timeline.
 */
export function motionFeedArgs(spec: ResolvedSpec, path: string): string[] {
  const size = brollSize(spec);
  return [
    '-f',
    'rawvideo',
    '-pix_fmt',
    'yuv420p',
    '-video_size',
    `${size.width}x${size.height}`,
    '-framerate',
    num(spec.fps),
    '-thread_queue_size',
    '4',
    '-i',
    path,
  ];
}

/**
 * A library bed's three files (intro, loop, outro in bedInputArgs' order; the bed's graph bounds the loop),
 * or music that loops on the demuxer side, repeating the compressed stream, bounded by -t to the video.
 */
function musicInputs(
  music: NonNullable<ResolvedSpec['music']>,
  durationSec: number,
  addInputs: (inputArgs: string[], count: number) => number,
): MusicInputs {
  if (!music.bed)
    return {
      loop: addInputs(['-stream_loop', '-1', '-t', num(durationSec), '-i', music.path], 1),
      bed: null,
    };
  const { introPath, outroPath } = music.bed;
  const first = addInputs(bedInputArgs({ intro: introPath, loop: music.path, outro: outroPath }), 3);
  return { loop: first + 1, bed: { intro: first, outro: first + 2 } };
}

/** A picture read as one frame (the graph repeats it). */
function still(path: string | null | undefined): string[] | null {
  return path ? ['-i', path] : null;
}

/**
 * Plans inputs for the full render (`video`) or for the audio-only loudness pass (`audio`), which skips
 * every input that contributes no sound. A video pass with moving scenes reads their frames from
 * `motionFeed` (a FIFO the motion engine writes); one with a presenter layout or an outro reads the pictures
 * prepared for it (`assets`). Inputs a composition without these has keep their places.
 */
export function planInputs(
  spec: ResolvedSpec,
  pass: 'video' | 'audio',
  motionFeed?: string,
  assets?: LayoutAssets,
): InputPlan {
  const args: string[] = [];
  let next = 0;
  /** Adds the arguments of `count` inputs and returns the first one's index. */
  const addInputs = (inputArgs: string[], count: number): number => {
    args.push(...inputArgs);
    next += count;
    return next - count;
  };
  const add = (inputArgs: string[]): number => addInputs(inputArgs, 1);
  const audioOnly = pass === 'audio';
  const scenes = spec.scenes.map((scene) => {
    if (scene.motion) return scene.hasAudio ? add(['-vn', ...sceneInputArgs(scene, spec.fps)]) : null;
    return audioOnly && !scene.hasAudio ? null : add(sceneInputArgs(scene, spec.fps));
  });
  let feed: number | null = null;
  if (!audioOnly && spec.scenes.some((s) => s.motion)) {
    if (motionFeed === undefined) throw new Error('moving scenes need a motion feed');
    feed = add(motionFeedArgs(spec, motionFeed));
  }
  const sceneVideo = spec.scenes.map((scene, i) => (scene.motion ? feed : (scenes[i] ?? null)));
  const narration = spec.narration ? add(['-i', spec.narration.path]) : null;
  const music = spec.music ? musicInputs(spec.music, spec.durationSec, addInputs) : null;
  // The logo is read once (a single frame); overlay repeats the last frame of a finished input.
  const logo = spec.logo && !audioOnly ? add(['-i', spec.logo.path]) : null;
  const plan: InputPlan = {
    args,
    scenes,
    sceneVideo,
    motionFeed: feed,
    narration,
    music,
    logo,
    presenter: null,
    bubbleMask: null,
    bubbleRing: null,
    hostImage: null,
    hostGlow: null,
    hostUrl: null,
    outro: null,
  };
  if (audioOnly) return plan;
  const source = spec.presenter?.source;
  if (source) plan.presenter = source.inputs.map(add);
  if (needsLayoutAssets(spec) && assets === undefined)
    throw new Error('this composition needs its layout pictures');
  const addStill = (path: string | null | undefined) => {
    const input = still(path);
    return input ? add(input) : null;
  };
  if (spec.presenter?.geometry.bubble) {
    plan.bubbleMask = addStill(assets?.bubble?.mask);
    plan.bubbleRing = addStill(assets?.bubble?.ring);
  }
  if (spec.presenter?.host) {
    plan.hostImage = addStill(assets?.host?.image);
    plan.hostGlow = spec.narration ? addStill(assets?.host?.glow) : null;
    plan.hostUrl = addStill(assets?.host?.url);
  }
  if (spec.outro) plan.outro = addStill(assets?.outro);
  return plan;
}
