// The looping graph: fits a bed to a video's length as intro, the loop as often as it takes, and the outro.
// The intro ends on the loop's first downbeat and the outro starts on a bar line, each joined by a 50 ms
// crossfade placed just before the downbeat, where no note starts; the loop joins itself sample-exactly.

import { BED_SAMPLE_RATE, type BedSections } from './timing.ts';

/** The outro plays its body and at least this much of its ring-out (less than a bar more). */
const MIN_RING_SAMPLES = 2 * BED_SAMPLE_RATE;
/** Fade over the end of the outro's ring-out, which the bed cuts short. */
const OUTRO_FADE_SAMPLES = BED_SAMPLE_RATE;
/** Fade at the end of a bed too short for an outro: at most this, at most a quarter of the bed. */
const LOOP_FADE_SAMPLES = 2 * BED_SAMPLE_RATE;

export interface BedPlan {
  lengthSamples: number;
  /** Whether the intro plays; a bed too short for it starts on the loop's downbeat. */
  intro: boolean;
  /** Samples of loop played from its first downbeat, wrapping round as often as it takes. */
  loopSamples: number;
  /** Whether the outro plays; it starts on a bar line of the loop. */
  outro: boolean;
  /** Samples of outro played from its downbeat. */
  outroSamples: number;
  /** Fade at the very end, where the music is cut before it has rung out. */
  fadeOutSamples: number;
  /** Where, in the bed, a section joins the next or the loop joins itself. */
  seams: number[];
}

/**
 * How a bed of `lengthSec` is made: the intro when there is room for it, a bar and the outro; the outro on
 * the last bar line that leaves it its body and two seconds of ring-out; no outro when not even that fits.
 * The outro file rings out for longer (at least 5 s and two bars), so it always fills the bed to its end.
 */
export function planBed(sections: BedSections, lengthSec: number): BedPlan {
  const n = Math.round(lengthSec * BED_SAMPLE_RATE);
  if (!(n > 0)) throw new Error(`a music bed cannot last ${lengthSec} s`);
  const bar = sections.barSamples;
  const minOutro = sections.outroBodySamples + MIN_RING_SAMPLES;
  const intro = n >= sections.introSamples + bar + minOutro;
  const start = intro ? sections.introSamples : 0;
  const bars = Math.floor((n - start - minOutro) / bar);
  const outro = bars >= 1;
  const loopSamples = outro ? bars * bar : n - start;
  const outroSamples = n - start - loopSamples;
  const fadeOutSamples = outro ? OUTRO_FADE_SAMPLES : Math.min(LOOP_FADE_SAMPLES, Math.floor(n / 4));
  const seams = intro ? [start] : [];
  for (let at = sections.loopSamples; at < loopSamples; at += sections.loopSamples) seams.push(start + at);
  if (outro) seams.push(start + loopSamples);
  return { lengthSamples: n, intro, loopSamples, outro, outroSamples, fadeOutSamples, seams };
}

/** The stream labels (e.g. '2:a') of a bed's three files; the loop's input must be opened with -stream_loop -1. */
export interface BedInputs {
  intro: string;
  loop: string;
  outro: string;
}

const FORMAT = `aformat=sample_fmts=fltp:sample_rates=${BED_SAMPLE_RATE}:channel_layouts=stereo`;

function trim(from: number, to: number): string {
  return `atrim=start_sample=${from}:end_sample=${to},asetpts=PTS-STARTPTS`;
}

/** Filter chains (joined with ';') that make the planned bed from the inputs as `[output]`. */
export function bedGraph(sections: BedSections, plan: BedPlan, inputs: BedInputs, output: string): string {
  const j = sections.joinSamples;
  const l = sections.loopSamples;
  const chains: string[] = [];
  // After the intro the loop enters `j` samples before its downbeat, to crossfade with the intro's end.
  const loopFrom = plan.intro ? l - j : 0;
  const loopTo = plan.intro ? l + plan.loopSamples : plan.loopSamples;
  chains.push(`[${inputs.loop}]${FORMAT},${trim(loopFrom, loopTo)}[bedloop]`);
  let current = 'bedloop';
  if (plan.intro) {
    chains.push(`[${inputs.intro}]${FORMAT},${trim(0, sections.introSamples)}[bedintro]`);
    chains.push(`[bedintro][${current}]acrossfade=ns=${j}:c1=tri:c2=tri[bedhead]`);
    current = 'bedhead';
  }
  if (plan.outro) {
    // The outro file starts `j` samples before its downbeat: those crossfade with the loop's last bar's end.
    chains.push(`[${inputs.outro}]${FORMAT},${trim(0, j + plan.outroSamples)}[bedoutro]`);
    chains.push(`[${current}][bedoutro]acrossfade=ns=${j}:c1=tri:c2=tri[bedbody]`);
    current = 'bedbody';
  }
  chains.push(
    `[${current}]afade=t=out:ss=${plan.lengthSamples - plan.fadeOutSamples}:ns=${plan.fadeOutSamples}[${output}]`,
  );
  return chains.join(';');
}

/** The ffmpeg input arguments of a bed's files, in the order intro, loop (read round and round), outro. */
export function bedInputArgs(files: { intro: string; loop: string; outro: string }): string[] {
  return ['-i', files.intro, '-stream_loop', '-1', '-i', files.loop, '-i', files.outro];
}
