// The ffmpeg input list of a composition and where each source lands in it.
import { num } from '../ffmpeg/filter-escape.ts';
import type { ResolvedScene, ResolvedSpec } from './compose-spec.ts';

export interface InputPlan {
  args: string[];
  /** Input index per scene, null where this pass does not read the scene. */
  scenes: (number | null)[];
  narration: number | null;
  music: number | null;
  logo: number | null;
}

/** Input options for one scene: seek and length are applied while demuxing, so no frame is decoded twice. */
export function sceneInputArgs(scene: ResolvedScene, fps: number): string[] {
  // A still is decoded once; the graph repeats the scaled frame (decoding a PNG per frame costs more).
  if (scene.kind === 'image') return ['-framerate', num(fps), '-i', scene.path];
  const seek = scene.inPoint > 0 ? ['-ss', num(scene.inPoint)] : [];
  return [...seek, '-t', num(scene.duration), '-i', scene.path];
}

/**
 * Plans inputs for the full render (`video`) or for the audio-only loudness pass (`audio`), which skips
 * every input that contributes no sound.
 */
export function planInputs(spec: ResolvedSpec, pass: 'video' | 'audio'): InputPlan {
  const args: string[] = [];
  let next = 0;
  const add = (inputArgs: string[]): number => {
    args.push(...inputArgs);
    return next++;
  };
  const audioOnly = pass === 'audio';
  const scenes = spec.scenes.map((scene) =>
    audioOnly && !scene.hasAudio ? null : add(sceneInputArgs(scene, spec.fps)),
  );
  const narration = spec.narration ? add(['-i', spec.narration.path]) : null;
  // Looping on the demuxer side repeats the compressed stream; -t bounds it to the video length.
  const music = spec.music
    ? add(['-stream_loop', '-1', '-t', num(spec.durationSec), '-i', spec.music.path])
    : null;
  // The logo is read once (a single frame); overlay repeats the last frame of a finished input.
  const logo = spec.logo && !audioOnly ? add(['-i', spec.logo.path]) : null;
  return { args, scenes, narration, music, logo };
}
