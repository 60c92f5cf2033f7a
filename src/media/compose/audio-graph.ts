// Audio half of the composition filter graph: narration, ducked music and scene sound mixed to one bed.
import { num } from '../ffmpeg/filter-escape.ts';
import { bedGraph, planBed } from '../music/bed-graph.ts';
import type { InputPlan, MusicInputs } from './compose-inputs.ts';
import type { ResolvedSpec } from './compose-spec.ts';
import type { GraphPart } from './video-graph.ts';

/** Every branch is brought to this before mixing, so the mix needs no further conversion. */
export const MIX_FORMAT = 'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/**
 * Music ducking: the narration drives a compressor on the music. Threshold ~ -34 dBFS so ordinary speech
 * triggers it, ratio 8 pulls music ~12 dB under the voice, release long enough not to pump between words.
 */
export const DUCKING = 'sidechaincompress=threshold=0.02:ratio=8:attack=20:release=350';

/**
 * The start of the music's chain: a library bed fitted to the video as intro, loop and outro (its chains
 * added to `filters`; its output is 48 kHz stereo float, exactly the video's length), or the looped file.
 */
function musicSource(
  music: NonNullable<ResolvedSpec['music']>,
  inputs: MusicInputs,
  durationSec: number,
  filters: string[],
): string {
  if (!music.bed || !inputs.bed) return `[${inputs.loop}:a]${MIX_FORMAT},`;
  const { sections } = music.bed;
  const labels = { intro: `${inputs.bed.intro}:a`, loop: `${inputs.loop}:a`, outro: `${inputs.bed.outro}:a` };
  filters.push(bedGraph(sections, planBed(sections, durationSec), labels, 'bed'));
  return '[bed]';
}

/**
 * The mixed (not yet normalised) audio, or null when nothing in the spec makes sound. The music bed ducks under
 * every voice-like source: the narration and the scenes' own sound (a hosted video model's native audio).
 */
export function buildAudioMix(spec: ResolvedSpec, inputs: InputPlan): GraphPart | null {
  const filters: string[] = [];
  const branches: string[] = [];
  /** Copies of the ducking sources, one per source. */
  const keys: string[] = [];
  const d = num(spec.durationSec);
  const music = spec.music && inputs.music !== null ? spec.music : null;

  if (spec.narration && inputs.narration !== null) {
    const tempo = spec.narration.tempo !== 1 ? `,atempo=${num(spec.narration.tempo)}` : '';
    // Padded to the full length: the mix and the ducking key both need a stream that lasts the whole video.
    // With an outro the narration is cut at the timeline's end: the end card has music only.
    const length = spec.outro
      ? `atrim=duration=${num(spec.mainSec)},apad=whole_dur=${d}`
      : `apad=whole_dur=${d},atrim=duration=${d}`;
    const chain = `[${inputs.narration}:a]${MIX_FORMAT}${tempo},${length}`;
    if (music) {
      filters.push(`${chain},asplit=2[narr][narrkey]`);
      keys.push('narrkey');
    } else {
      filters.push(`${chain}[narr]`);
    }
    branches.push('narr');
  }

  if (spec.scenes.some((s) => s.hasAudio)) {
    const labels = spec.scenes.map((scene, i) => {
      const label = `sa${i}`;
      const sd = num(scene.duration);
      const input = inputs.scenes[i];
      if (scene.hasAudio && input !== null && input !== undefined) {
        filters.push(`[${input}:a]${MIX_FORMAT},apad,atrim=duration=${sd}[${label}]`);
      } else {
        filters.push(`anullsrc=r=48000:cl=stereo,atrim=duration=${sd}[${label}]`);
      }
      return label;
    });
    const gain = spec.sceneAudioVolume !== 1 ? `,volume=${num(spec.sceneAudioVolume)}` : '';
    const pad = spec.outro ? `apad=whole_dur=${d},` : '';
    const concat = `${labels.map((l) => `[${l}]`).join('')}concat=n=${labels.length}:v=0:a=1,${pad}atrim=duration=${d}${gain}`;
    if (music) {
      filters.push(`${concat},asplit=2[scene][scenekey]`);
      keys.push('scenekey');
    } else {
      filters.push(`${concat}[scene]`);
    }
    branches.push('scene');
  }

  if (music && inputs.music) {
    const { volume, fadeInSec, fadeOutSec } = music;
    const fades: string[] = [];
    if (fadeInSec > 0) fades.push(`afade=t=in:st=0:d=${num(fadeInSec)}`);
    if (fadeOutSec > 0)
      fades.push(`afade=t=out:st=${num(spec.durationSec - fadeOutSec)}:d=${num(fadeOutSec)}`);
    const source = musicSource(music, inputs.music, spec.durationSec, filters);
    const chain = [`volume=${num(volume)}`, ...fades, `atrim=duration=${d}`];
    filters.push(`${source}${chain.join(',')}[music]`);
    if (keys.length === 0) {
      branches.push('music');
    } else {
      let key = keys[0]!;
      if (keys.length > 1) {
        filters.push(
          `${keys.map((k) => `[${k}]`).join('')}amix=inputs=${keys.length}:duration=longest:normalize=0[duckkey]`,
        );
        key = 'duckkey';
      }
      filters.push(`[music][${key}]${DUCKING}[ducked]`);
      branches.push('ducked');
    }
  }

  if (branches.length === 0) return null;
  if (branches.length === 1) return { filters, output: branches[0]! };
  filters.push(
    `${branches.map((b) => `[${b}]`).join('')}amix=inputs=${branches.length}:duration=longest:dropout_transition=0:normalize=0[mix]`,
  );
  return { filters, output: 'mix' };
}
