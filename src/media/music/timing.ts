// Lengths of a bed's sections in samples: everything sits on the bar grid of the bed's tempo, so the loop is
// a whole number of bars and every cut of the render falls exactly on a beat.

export const BED_SAMPLE_RATE = 48000;

/** The loop is the shortest whole number of chord cycles (at least two: an A and a B variation) this long. */
const MIN_LOOP_SEC = 15;
const MAX_LOOP_SEC = 70;
/** Room after a section for its notes' release and the reverb to die away, rounded up to whole bars. */
const TAIL_SEC = 5;
/** Intro and outro last one bar, or two when bars are shorter than this. */
const LONG_BAR_SEC = 3;

export interface BedMeter {
  bpm: number;
  chordCount: number;
  barsPerChord: 1 | 2;
}

export interface BedTiming {
  bpm: number;
  beatSamples: number;
  barSamples: number;
  chordSamples: number;
  /** One pass through the chord progression. */
  cycleSamples: number;
  /** Chord cycles in the loop: A and B variations taking turns. */
  loopCycles: number;
  loopSamples: number;
  introBars: number;
  outroBars: number;
  /** Bars after a section for its tail (and the outro's ring-out). */
  tailBars: number;
}

/** The bed's sections on the bar grid; throws for tempos whose beat is not a whole number of samples. */
export function bedTiming({ bpm, chordCount, barsPerChord }: BedMeter): BedTiming {
  const beatSamples = (60 * BED_SAMPLE_RATE) / bpm;
  if (!Number.isInteger(beatSamples)) throw new Error(`${bpm} bpm is not a whole number of samples per beat`);
  const barSamples = 4 * beatSamples;
  const chordSamples = barsPerChord * barSamples;
  const cycleSamples = chordCount * chordSamples;
  const loopCycles = Math.max(2, Math.ceil((MIN_LOOP_SEC * BED_SAMPLE_RATE) / cycleSamples));
  const loopSamples = loopCycles * cycleSamples;
  if (loopSamples > MAX_LOOP_SEC * BED_SAMPLE_RATE)
    throw new Error(`at ${bpm} bpm two chord cycles last over ${MAX_LOOP_SEC} s`);
  const sectionBars = barSamples >= LONG_BAR_SEC * BED_SAMPLE_RATE ? 1 : 2;
  return {
    bpm,
    beatSamples,
    barSamples,
    chordSamples,
    cycleSamples,
    loopCycles,
    loopSamples,
    introBars: sectionBars,
    outroBars: sectionBars,
    // At least two bars: the outro then always rings out for longer than a fitted bed plays it.
    tailBars: Math.max(2, Math.ceil((TAIL_SEC * BED_SAMPLE_RATE) / barSamples)),
  };
}

/** Where the sections lie in the one render of a bed, in bars from its start. */
export interface RenderLayout {
  intro: number;
  /** The loop's pass; its tail follows in `tailBars` of silence. */
  loop: number;
  /** The loop's last chord again, played into the outro so the outro starts after what a loop ends with. */
  outroLead: number;
  outro: number;
  /** The end of the render: the outro's ring-out included. */
  end: number;
}

/** Sections separated by silences as long as their tails, so each tail is captured without the next. */
export function renderLayout(timing: BedTiming, barsPerChord: number): RenderLayout {
  const loopBars = timing.loopSamples / timing.barSamples;
  const intro = 0;
  const loop = intro + timing.introBars + timing.tailBars;
  const outroLead = loop + loopBars + timing.tailBars;
  const outro = outroLead + barsPerChord;
  return { intro, loop, outroLead, outro, end: outro + timing.outroBars + timing.tailBars };
}

/**
 * The joins of a fitted bed crossfade over this many samples (50 ms): long enough that no join clicks, too
 * short to hear as a fade. The outro file starts this long before its downbeat, to crossfade into.
 */
export const JOIN_SAMPLES = 2400;

/** Lengths of a bed's three files, in samples. */
export interface BedSections {
  barSamples: number;
  /** The intro, up to the loop's first downbeat. */
  introSamples: number;
  /** The loop: starts on its first downbeat, ends where that downbeat follows again. */
  loopSamples: number;
  /** From the outro file's start to the outro's downbeat (the join). */
  joinSamples: number;
  /** From the outro's downbeat to its last notes' release. */
  outroBodySamples: number;
  /** The whole outro file: the join, the body and the ring-out. */
  outroSamples: number;
}

export function bedSections(timing: BedTiming): BedSections {
  return {
    barSamples: timing.barSamples,
    introSamples: timing.introBars * timing.barSamples,
    loopSamples: timing.loopSamples,
    joinSamples: JOIN_SAMPLES,
    outroBodySamples: timing.outroBars * timing.barSamples,
    outroSamples: JOIN_SAMPLES + (timing.outroBars + timing.tailBars) * timing.barSamples,
  };
}
