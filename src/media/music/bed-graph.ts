// Pure builders of the ffmpeg graph that synthesizes an instrumental bed: one chord cycle is computed
// with aevalsrc (pads, bass, arpeggio; drums separately), looped to length, given a little room with
// echoes, and faded at both ends so the bed loops smoothly.

import { bassNote, midiToHz, padVoicing, parseChord, type Chord } from './theory.ts';

export const BED_SAMPLE_RATE = 48000;
/**
 * Rate the expressions are evaluated at: everything synthesized sits below its 12 kHz limit, and
 * evaluating half the samples halves the cost. The mix is resampled to BED_SAMPLE_RATE.
 */
export const SYNTH_SAMPLE_RATE = 24000;

export type Mood = 'calm' | 'uplifting' | 'energetic' | 'corporate' | 'dark' | 'dreamy';

export interface BedArrangement {
  chords: string[];
  barsPerChord: 1 | 2;
  /** Lowest MIDI note of the pad's octave; the arpeggio plays an octave higher, the shimmer two. */
  padLow: number;
  /** Pad fade-in at each chord change, in seconds: long for calm beds, short for driving ones. */
  attackSec: number;
  bass: 'none' | 'sustain' | 'pulse';
  arp: 'none' | 'eighths' | 'sixteenths';
  kick: 'none' | 'half' | 'four';
  hat: 'none' | 'offbeat';
  /** High soft tones drifting over the pad. */
  shimmer: boolean;
  /** Low-pass corner of the tonal parts in Hz: lower is darker and softer. */
  brightnessHz: number;
}

export interface BedTiming {
  beatSec: number;
  chordSec: number;
  cycleSec: number;
  /** Samples per chord cycle at SYNTH_SAMPLE_RATE. */
  cycleSamples: number;
  cycles: number;
  durationSec: number;
}

const MIN_BED_SEC = 60;
const MAX_BED_SEC = 90;

/**
 * Lengths of a bed: a whole number of chord cycles between 60 and 90 s, nearest to `targetSec`. The
 * beat must be a whole number of samples so that the looped cycles join sample-exactly.
 */
export function bedTiming(bpm: number, arrangement: BedArrangement, targetSec = 75): BedTiming {
  const beatSamples = (60 * SYNTH_SAMPLE_RATE) / bpm;
  if (!Number.isInteger(beatSamples)) throw new Error(`${bpm} bpm is not a whole number of samples per beat`);
  const cycleSamples = beatSamples * 4 * arrangement.barsPerChord * arrangement.chords.length;
  const cycleSec = cycleSamples / SYNTH_SAMPLE_RATE;
  let cycles = Math.max(1, Math.round(targetSec / cycleSec));
  while (cycles * cycleSec > MAX_BED_SEC && cycles > 1) cycles--;
  while (cycles * cycleSec < MIN_BED_SEC) cycles++;
  if (cycles * cycleSec > MAX_BED_SEC)
    throw new Error(`a ${cycleSec} s chord cycle cannot make a 60–90 s bed`);
  return {
    beatSec: beatSamples / SYNTH_SAMPLE_RATE,
    chordSec: cycleSec / arrangement.chords.length,
    cycleSec,
    cycleSamples,
    cycles,
    durationSec: (cycles * cycleSamples) / SYNTH_SAMPLE_RATE,
  };
}

function n(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** Lowest MIDI note of the bass octave (C2). */
const BASS_LOW = 36;

/**
 * Short linear ramps at both ends of a repeating note of `lengthSec`, whose elapsed time is `elapsed`:
 * a note that is cut off while still sounding would click.
 */
export function edgesExpr(elapsed: string, lengthSec: number): string {
  return `min(1,${elapsed}*200)*min(1,(${n(lengthSec)}-${elapsed})*100)`;
}

/** An expression choosing values[i] where register `reg` holds i (0-based). */
export function selectExpr(reg: number, values: string[]): string {
  let expr = values[values.length - 1]!;
  for (let i = values.length - 2; i >= 0; i--) expr = `if(eq(ld(${reg}),${i}),${values[i]},${expr})`;
  return expr;
}

/**
 * The crossfade into each chord: a raised cosine from 0 to 1 over `attackSec`, read from the time
 * within the chord in register 1 and left in register 2. The previous chord fades out as its mirror.
 */
export function crossfadeExpr(attackSec: number): string {
  return `st(2,(1-cos(PI*min(ld(1)/${n(attackSec)},1)))/2)`;
}

/**
 * Whole cycles per chord cycle of a frequency: every partial is tuned to a whole number of periods per
 * cycle (at most half a cycle-frequency away, a few hundredths of a hertz), so that the looped cycles
 * join without a phase jump even where notes sound across the join.
 */
export function cyclesPerLoop(hz: number, timing: BedTiming): number {
  return Math.round(hz * timing.cycleSec);
}

interface Partial {
  ratio: number;
  amp: number;
}

/**
 * A sustained tone for the chord whose index is in register `reg`, one sine per partial:
 * sin(2π·k·ld(8)) with register 8 holding t as a fraction of the cycle and k whole.
 */
function toneExpr(notes: number[], reg: number, partials: Partial[], timing: BedTiming): string {
  return partials
    .map((p) => {
      const k = selectExpr(
        reg,
        notes.map((m) => String(cyclesPerLoop(midiToHz(m) * p.ratio, timing))),
      );
      return `${n(p.amp)}*sin(2*PI*${k}*ld(8))`;
    })
    .join('+');
}

/** A sustained part that crossfades from the previous chord (register 7) into the current one (register 0). */
function legatoExpr(
  notes: number[],
  partials: Partial[],
  level: number,
  arrangement: BedArrangement,
  timing: BedTiming,
): string {
  return (
    `${n(level)}*(ld(2)*(${toneExpr(notes, 0, partials, timing)})+` +
    `if(lt(ld(1),${n(arrangement.attackSec)}),(1-ld(2))*(${toneExpr(notes, 7, partials, timing)}),0))`
  );
}

/** Pads, bass, arpeggio and shimmer for one channel; `side` (-1 left, +1 right) spreads the detuning. */
export function tonalExpr(arrangement: BedArrangement, timing: BedTiming, side: -1 | 1): string {
  const chords: Chord[] = arrangement.chords.map(parseChord);
  const count = chords.length;
  const parts: string[] = [];

  // Registers: 0 chord index, 1 time within chord, 2 crossfade, 4 arp step, 5 time within step,
  // 7 previous chord index, 8 position in the cycle (0–1).
  const setup =
    `st(8,t*${SYNTH_SAMPLE_RATE}/${timing.cycleSamples});` +
    `st(0,floor(t/${n(timing.chordSec)}));st(1,t-ld(0)*${n(timing.chordSec)});st(7,mod(ld(0)+${count - 1},${count}));` +
    `${crossfadeExpr(arrangement.attackSec)};`;

  // Two detuned copies beat slowly against each other, mirrored between the channels for width.
  const pad: Partial[] = [
    { ratio: 1 + side * 0.0025, amp: 1 },
    { ratio: 1 - side * 0.0012, amp: 0.6 },
    { ratio: 2, amp: 0.15 },
  ];
  // Against a four-on-the-floor kick the pad ducks on each beat (the pumping of dance music), over a
  // few milliseconds rather than at once, which would click.
  const beat = n(timing.beatSec);
  const pump =
    arrangement.kick === 'four' ? `(1-0.45*(1-exp(-mod(t,${beat})*150))*exp(-mod(t,${beat})*9))*` : '';
  for (let v = 0; v < 4; v++) {
    const notes = chords.map((c) => padVoicing(c, arrangement.padLow)[v]!);
    parts.push(`${pump}${legatoExpr(notes, pad, 0.07, arrangement, timing)}`);
  }

  const bassNotes = chords.map((c) => bassNote(c, BASS_LOW));
  if (arrangement.bass === 'sustain') {
    parts.push(
      legatoExpr(
        bassNotes,
        [
          { ratio: 1, amp: 1 },
          { ratio: 2, amp: 0.25 },
        ],
        0.22,
        arrangement,
        timing,
      ),
    );
  } else if (arrangement.bass === 'pulse') {
    const half = timing.beatSec / 2;
    parts.push(
      `st(5,mod(t,${n(half)}));0.26*${edgesExpr('ld(5)', half)}*exp(-ld(5)*5)*` +
        `(${toneExpr(
          bassNotes,
          0,
          [
            { ratio: 1, amp: 1 },
            { ratio: 2, amp: 0.25 },
          ],
          timing,
        )})`,
    );
  }

  if (arrangement.arp !== 'none') {
    const step = timing.beatSec / (arrangement.arp === 'eighths' ? 2 : 4);
    const notes = chords.map((c) => padVoicing(c, arrangement.padLow + 12));
    const k = (ratio: number): string =>
      selectExpr(
        0,
        notes.map((ns) =>
          selectExpr(
            4,
            ns.map((m) => String(cyclesPerLoop(midiToHz(m) * ratio, timing))),
          ),
        ),
      );
    parts.push(
      `st(4,mod(floor(t/${n(step)}),4));st(5,mod(t,${n(step)}));` +
        `0.1*${edgesExpr('ld(5)', step)}*exp(-ld(5)*7)*(sin(2*PI*${k(1)}*ld(8))+0.3*exp(-ld(5)*10)*sin(2*PI*${k(2)}*ld(8)))`,
    );
  }

  if (arrangement.shimmer) {
    const highs = chords.map((c) => padVoicing(c, arrangement.padLow + 24)[side < 0 ? 1 : 2]!);
    parts.push(
      `(0.5+0.5*sin(2*PI*t/${n(timing.beatSec * 2)}+${side < 0 ? 0 : 'PI'}))*` +
        legatoExpr(highs, [{ ratio: 1, amp: 1 }], 0.035, arrangement, timing),
    );
  }

  // Each part sequences its own registers with ';', which binds loosest, so each is parenthesized.
  return setup + parts.map((p) => `(${p})`).join('+');
}

/** Kick and hi-hat for one cycle, mono; empty when the arrangement has no drums. */
export function drumsExpr(arrangement: BedArrangement, timing: BedTiming): string | undefined {
  const parts: string[] = [];
  const beat = n(timing.beatSec);
  if (arrangement.kick !== 'none') {
    const period = timing.beatSec * (arrangement.kick === 'four' ? 1 : 2);
    // A sine sweeping from 135 Hz down to 45 Hz: the phase is the integral of the falling frequency.
    parts.push(
      `st(0,mod(t,${n(period)}));0.55*${edgesExpr('ld(0)', period)}*exp(-ld(0)*7)*sin(2*PI*(45*ld(0)+90*(1-exp(-ld(0)*25))/25))`,
    );
  }
  if (arrangement.hat === 'offbeat') {
    parts.push(`st(1,mod(t+${n(timing.beatSec / 2)},${beat}));0.1*exp(-ld(1)*60)*(2*random(6)-1)`);
  }
  return parts.length > 0 ? parts.map((p) => `(${p})`).join('+') : undefined;
}

/**
 * The filter graph (output [bed] for the file, [meter] through ebur128 to measure loudness) that
 * synthesizes a bed; `lengthSec` renders only the bed's opening, faded, instead of all of it.
 */
export function bedGraph(
  arrangement: BedArrangement,
  timing: BedTiming,
  lengthSec = timing.durationSec,
): string {
  const rate = SYNTH_SAMPLE_RATE;
  const cycles = Math.min(timing.cycles, Math.ceil(lengthSec / timing.cycleSec));
  // Trimming by samples (not seconds) keeps every cycle exactly the same length.
  const cycle = `atrim=end_sample=${timing.cycleSamples}`;
  const loop = `aloop=loop=${cycles - 1}:size=${timing.cycleSamples}`;
  const tonal =
    `aevalsrc='${tonalExpr(arrangement, timing, -1)}|${tonalExpr(arrangement, timing, 1)}':s=${rate},${cycle},` +
    // Filtering after the loop keeps the filter's state running across the joins.
    `${loop},lowpass=f=${arrangement.brightnessHz}`;
  const drums = drumsExpr(arrangement, timing);
  const mix = drums
    ? `${tonal}[tonal];aevalsrc='${drums}':s=${rate},${cycle},${loop},aformat=channel_layouts=stereo[drums];` +
      `[tonal][drums]amix=inputs=2:normalize=0,`
    : `${tonal},`;
  const fade = Math.min(3, lengthSec / 4);
  const trim = lengthSec < timing.durationSec ? `atrim=end_sample=${Math.round(lengthSec * rate)},` : '';
  return (
    `${mix}${trim}aresample=${BED_SAMPLE_RATE},aecho=0.8:0.8:70|130:0.25|0.15,highpass=f=35,` +
    `afade=t=in:d=${n(Math.min(1.5, fade))},afade=t=out:st=${n(lengthSec - fade)}:d=${n(fade)},asplit[bed][m];[m]ebur128[meter]`
  );
}
