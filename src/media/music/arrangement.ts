// Turns a bed's arrangement (chord progression, pads, keys, bass, bell, drums) into the notes of one General
// MIDI render: an intro, one pass of the loop, and the outro, each followed by silence that holds its tail.

import type { MidiEvent, MidiSong } from './midi-file.ts';
import { bassNote, padVoicing, parseChord, type Chord } from './theory.ts';
import { bedTiming, renderLayout, type BedTiming, type RenderLayout } from './timing.ts';

export type Mood = 'calm' | 'uplifting' | 'energetic' | 'corporate' | 'dark' | 'dreamy';

/** A General MIDI instrument and where it plays. */
export interface Part {
  /** General MIDI program, 0-based (0 Acoustic Grand Piano … 127 Gunshot). */
  program: number;
  /** Lowest MIDI note of the octave the part's chords are voiced in. */
  low: number;
  velocity: number;
}

/**
 * broken: a broken chord in quarters; arp8 / arp16: arpeggios in eighths / sixteenths; strum: guitar strums;
 * stabs: short chords on the off-beats. The A variation plays every other stroke.
 */
export type KeysPattern = 'broken' | 'arp8' | 'arp16' | 'strum' | 'stabs';
/** sustain: the root through the chord; roots: quarters; eighths: driving eighths; rootFifth: a pop figure. */
export type BassPattern = 'sustain' | 'roots' | 'eighths' | 'rootFifth';
/**
 * pop: kick 1 and 3, snare 2 and 4, eighth hats; light: kick, side stick and soft hats; four: kick on every
 * beat, claps, off-beat open hats; halftime: kick on 1, snare on 3.
 */
export type DrumPattern = 'pop' | 'light' | 'four' | 'halftime';

export interface BedArrangement {
  chords: string[];
  barsPerChord: 1 | 2;
  /** Sustained chords: one or two layers (e.g. strings and a synth pad). */
  pads: Part[];
  keys?: Part & { pattern: KeysPattern };
  bass?: Part & { pattern: BassPattern };
  /** A few high chord tones in the B variation: the bed's melody. */
  bell?: Part;
  /** A General MIDI drum kit (bank 128 program: 0 Standard, 8 Room, 24 Electronic, 25 TR-808, 40 Brush). */
  drums?: { kit: number; pattern: DrumPattern };
  /** Reverb room size 0–1 (FluidSynth's synth.reverb.room-size). */
  room: number;
}

export interface BedScore {
  timing: BedTiming;
  /** Where the sections lie in the render, in bars. */
  layout: RenderLayout;
  song: MidiSong;
}

export const PPQ = 480;
const BEAT = PPQ;
const BAR = 4 * BEAT;
const EIGHTH = BEAT / 2;
const SIXTEENTH = BEAT / 4;

const PAD_CHANNELS = [0, 4];
const KEYS = 1;
const BASS = 2;
const BELL = 3;
const DRUMS = 9;

// General MIDI percussion keys.
const KICK = 36;
const SIDE_STICK = 37;
const SNARE = 38;
const CLAP = 39;
const CLOSED_HAT = 42;
const OPEN_HAT = 46;
const LOW_TOM = 45;
const MID_TOM = 47;
const CRASH = 49;
const SHAKER = 70;

const CC_VOLUME = 7;
const CC_PAN = 10;
const CC_EXPRESSION = 11;
const CC_REVERB = 91;
const CC_CHORUS = 93;

/** A small deterministic generator: the same bed always gets the same touch. */
function touch(seed: string): () => number {
  let state = 0x811c9dc5;
  for (const ch of seed) state = Math.imul(state ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Notes of one section, none sounding past `end` (a note cut there is released there). */
class Section {
  readonly events: MidiEvent[] = [];
  constructor(
    private readonly end: number,
    private readonly random: () => number,
  ) {}

  note(channel: number, tick: number, length: number, note: number, velocity: number, spread = 0): void {
    if (tick >= this.end) return;
    const v = Math.round(velocity + (this.random() * 2 - 1) * spread);
    this.events.push(
      { tick, type: 'noteOn', channel, note, velocity: Math.min(127, Math.max(1, v)) },
      { tick: Math.min(tick + length, this.end), type: 'noteOff', channel, note },
    );
  }

  control(channel: number, tick: number, controller: number, value: number): void {
    this.events.push({ tick, type: 'control', channel, controller, value: Math.round(value) });
  }
}

/** Steps of a keys pattern in one bar: [tick in bar, voicing indices, velocity factor]. */
function keysStrokes(pattern: KeysPattern, full: boolean): [number, number[], number][] {
  const all = (ticks: number[], notes: number[][], accents: number[]) =>
    ticks.map((t, i): [number, number[], number] => [
      t,
      notes[i % notes.length]!,
      accents[i % accents.length]!,
    ]);
  let strokes: [number, number[], number][];
  switch (pattern) {
    case 'broken':
      strokes = all([0, BEAT, 2 * BEAT, 3 * BEAT], [[0], [2], [1], [3]], [1, 0.85, 0.95, 0.85]);
      break;
    case 'arp8':
      strokes = all(
        Array.from({ length: 8 }, (_, i) => i * EIGHTH),
        [[0], [1], [2], [3], [2], [1], [2], [3]],
        [1, 0.8, 0.9, 0.8],
      );
      break;
    case 'arp16':
      strokes = all(
        Array.from({ length: 16 }, (_, i) => i * SIXTEENTH),
        [[0], [1], [2], [3]],
        [1, 0.75, 0.85, 0.75],
      );
      break;
    case 'strum':
      // Down on the beats, up on the "and" of 2 and 3: the common folk-pop strum.
      strokes = all(
        [0, BEAT, BEAT + EIGHTH, 2 * BEAT + EIGHTH, 3 * BEAT, 3 * BEAT + EIGHTH],
        [
          [0, 1, 2, 3],
          [0, 1, 2, 3],
          [3, 2, 1],
          [3, 2, 1],
          [0, 1, 2, 3],
          [3, 2, 1],
        ],
        [1, 0.85, 0.7, 0.75, 0.9, 0.7],
      );
      break;
    case 'stabs':
      strokes = all(
        [EIGHTH, BEAT + EIGHTH, 2 * BEAT + EIGHTH, 3 * BEAT + EIGHTH],
        [[0, 1, 2, 3]],
        [0.85, 1, 0.85, 1],
      );
      break;
  }
  // The A variation thins the pattern to every other stroke, keeping the downbeat.
  return full ? strokes : strokes.filter((_, i) => i % 2 === 0);
}

/** Bass notes of one bar: [tick in bar, length, offset from the root in semitones, velocity factor]. */
function bassStrokes(
  pattern: BassPattern,
  chordBars: number,
  full: boolean,
): [number, number, number, number][] {
  switch (pattern) {
    case 'sustain':
      return [[0, chordBars * BAR, 0, 1]];
    case 'roots':
      return full
        ? [0, 1, 2, 3].map((b) => [b * BEAT, BEAT - 40, 0, b === 0 ? 1 : 0.85])
        : [
            [0, 2 * BEAT - 40, 0, 1],
            [2 * BEAT, 2 * BEAT - 40, 0, 0.9],
          ];
    case 'eighths':
      return Array.from({ length: 8 }, (_, i): [number, number, number, number] => [
        i * EIGHTH,
        EIGHTH - 30,
        full && i === 7 ? 12 : 0,
        i % 2 === 0 ? 1 : 0.8,
      ]);
    case 'rootFifth':
      return [
        [0, BEAT + EIGHTH - 30, 0, 1],
        [BEAT + EIGHTH, EIGHTH - 20, 0, 0.8],
        [2 * BEAT, BEAT - 30, 7, 0.9],
        ...(full ? [[3 * BEAT, BEAT - 30, 12, 0.8] as [number, number, number, number]] : []),
      ];
  }
}

/** Drum hits of one bar: [tick in bar, key, velocity]. */
function drumBar(pattern: DrumPattern, full: boolean): [number, number, number][] {
  const eighths = (key: number, on: number, off: number) =>
    Array.from({ length: 8 }, (_, i): [number, number, number] => [i * EIGHTH, key, i % 2 === 0 ? on : off]);
  switch (pattern) {
    case 'pop':
      return [
        [0, KICK, 100],
        [2 * BEAT, KICK, 92],
        ...(full ? [[2 * BEAT + EIGHTH, KICK, 80] as [number, number, number]] : []),
        [BEAT, SNARE, 92],
        [3 * BEAT, SNARE, 95],
        ...eighths(CLOSED_HAT, 72, 52),
      ];
    case 'light':
      return [
        [0, KICK, 88],
        [BEAT, SIDE_STICK, 80],
        [3 * BEAT, SIDE_STICK, 84],
        ...eighths(CLOSED_HAT, 58, 42),
        ...(full
          ? Array.from({ length: 16 }, (_, i): [number, number, number] => [
              i * SIXTEENTH,
              SHAKER,
              i % 2 ? 38 : 50,
            ])
          : []),
      ];
    case 'four':
      return [
        ...[0, 1, 2, 3].map((b): [number, number, number] => [b * BEAT, KICK, b === 0 ? 105 : 98]),
        [BEAT, CLAP, 90],
        [3 * BEAT, CLAP, 92],
        ...[0, 1, 2, 3].map((b): [number, number, number] => [b * BEAT + EIGHTH, OPEN_HAT, 66]),
        ...(full
          ? [0, 1, 2, 3].flatMap((b): [number, number, number][] => [
              [b * BEAT + SIXTEENTH, CLOSED_HAT, 44],
              [b * BEAT + 3 * SIXTEENTH, CLOSED_HAT, 48],
            ])
          : []),
      ];
    case 'halftime':
      return [
        [0, KICK, 100],
        ...(full ? [[BEAT + 3 * SIXTEENTH, KICK, 78] as [number, number, number]] : []),
        [2 * BEAT, SNARE, 96],
        ...[0, 1, 2, 3].map((b): [number, number, number] => [b * BEAT, CLOSED_HAT, b % 2 ? 50 : 62]),
      ];
  }
}

/** The fill on a phrase's last beat (replacing that beat of the bar): into the next downbeat. */
function drumFill(pattern: DrumPattern): [number, number, number][] {
  const last = 3 * BEAT;
  switch (pattern) {
    case 'pop':
      return [0, 1, 2, 3].map((i) => [last + i * SIXTEENTH, SNARE, 64 + i * 12]);
    case 'light':
      return [
        [last, SIDE_STICK, 70],
        [last + EIGHTH, SIDE_STICK, 82],
      ];
    case 'four':
      return [0, 1, 2, 3].map((i) => [last + i * SIXTEENTH, CLAP, 60 + i * 12]);
    case 'halftime':
      return [
        [last, MID_TOM, 80],
        [last + EIGHTH, LOW_TOM, 90],
      ];
  }
}

/** A bar of drum hits from `at`; each rings until the same drum is struck again, at most a beat or to the bar line. */
function playDrums(s: Section, at: number, hits: [number, number, number][]): void {
  for (const [tick, key, velocity] of hits) {
    const next = hits.reduce(
      (m, [t, k]) => (k === key && t > tick ? Math.min(m, t) : m),
      Math.min(tick + BEAT, BAR),
    );
    s.note(DRUMS, at + tick, next - tick, key, velocity, 6);
  }
}

/** Plays `chord` for `chordTicks` from `start`; `full` is the B variation, `fill` ends the phrase. */
function playChord(
  s: Section,
  arrangement: BedArrangement,
  chord: Chord,
  index: number,
  start: number,
  full: boolean,
  fill: boolean,
): void {
  const chordTicks = arrangement.barsPerChord * BAR;
  arrangement.pads.forEach((pad, layer) => {
    for (const n of padVoicing(chord, pad.low))
      s.note(PAD_CHANNELS[layer]!, start, chordTicks, n, pad.velocity);
  });
  for (let bar = 0; bar < arrangement.barsPerChord; bar++) {
    const at = start + bar * BAR;
    const lastBar = bar === arrangement.barsPerChord - 1;
    const keys = arrangement.keys;
    if (keys) {
      const voicing = padVoicing(chord, keys.low);
      const strokes = keysStrokes(keys.pattern, full);
      strokes.forEach(([tick, notes, accent], i) => {
        // A stroke rings until the next one; a strum spreads its strings over a few milliseconds.
        const next = strokes[i + 1]?.[0] ?? BAR;
        notes.forEach((v, k) => {
          const offset = keys.pattern === 'strum' ? k * 12 : 0;
          s.note(KEYS, at + tick + offset, next - tick - offset, voicing[v]!, keys.velocity * accent, 5);
        });
      });
    }
    const bass = arrangement.bass;
    if (bass && (bass.pattern !== 'sustain' || bar === 0)) {
      const root = bassNote(chord, bass.low);
      for (const [tick, length, offset, accent] of bassStrokes(bass.pattern, arrangement.barsPerChord, full))
        s.note(BASS, at + tick, length, root + offset, bass.velocity * accent, 4);
    }
    const drums = arrangement.drums;
    if (drums) {
      let hits = drumBar(drums.pattern, full);
      if (fill && lastBar) hits = [...hits.filter(([t]) => t < 3 * BEAT), ...drumFill(drums.pattern)];
      playDrums(s, at, hits);
    }
  }
  const bell = arrangement.bell;
  if (bell && full) {
    // Two chord tones per chord, walking through the voicing from chord to chord: a slow, simple melody.
    const voicing = padVoicing(chord, bell.low);
    const half = chordTicks / 2;
    s.note(BELL, start, half, voicing[(index + 3) % voicing.length]!, bell.velocity, 4);
    s.note(
      BELL,
      start + half + BEAT,
      half - BEAT,
      voicing[(index + 1) % voicing.length]!,
      bell.velocity * 0.85,
      4,
    );
  }
}

/** The notes of the whole render, from the set-up of every channel to the outro's ring-out. */
export function bedScore(id: string, bpm: number, arrangement: BedArrangement): BedScore {
  const chords = arrangement.chords.map(parseChord);
  const timing = bedTiming({ bpm, chordCount: chords.length, barsPerChord: arrangement.barsPerChord });
  const layout = renderLayout(timing, arrangement.barsPerChord);
  const random = touch(id);
  const chordTicks = arrangement.barsPerChord * BAR;
  const events: MidiEvent[] = [{ tick: 0, type: 'tempo', microsPerQuarter: Math.round(60_000_000 / bpm) }];

  const setUp = (channel: number, program: number, volume: number, pan: number, reverb: number) => {
    events.push(
      { tick: 0, type: 'program', channel, program },
      { tick: 0, type: 'control', channel, controller: CC_VOLUME, value: volume },
      { tick: 0, type: 'control', channel, controller: CC_PAN, value: pan },
      { tick: 0, type: 'control', channel, controller: CC_REVERB, value: reverb },
      { tick: 0, type: 'control', channel, controller: CC_CHORUS, value: 0 },
      { tick: 0, type: 'control', channel, controller: CC_EXPRESSION, value: 127 },
    );
  };
  const padVolume = arrangement.pads.length > 1 ? 88 : 100;
  arrangement.pads.forEach((pad, i) =>
    setUp(PAD_CHANNELS[i]!, pad.program, padVolume, i === 0 ? 46 : 82, 80),
  );
  if (arrangement.keys) setUp(KEYS, arrangement.keys.program, 92, 76, 60);
  if (arrangement.bass) setUp(BASS, arrangement.bass.program, 100, 64, 20);
  if (arrangement.bell) setUp(BELL, arrangement.bell.program, 84, 52, 100);
  if (arrangement.drums) setUp(DRUMS, arrangement.drums.kit, 100, 64, 36);

  // Intro: the progression's last chord as a pick-up into the loop's first, the pads swelling in, the keys
  // joining for the last bar and the drums leading in with a fill.
  const introEnd = (layout.intro + timing.introBars) * BAR;
  const intro = new Section(introEnd, random);
  const pickUp = chords[chords.length - 1]!;
  const introStart = layout.intro * BAR;
  for (let t = introStart; t < introEnd; t += EIGHTH) {
    const progress = (t - introStart) / (introEnd - introStart);
    for (const ch of PAD_CHANNELS.slice(0, arrangement.pads.length))
      intro.control(ch, t, CC_EXPRESSION, 30 + 97 * progress);
  }
  const lastIntroBar = introEnd - BAR;
  arrangement.pads.forEach((pad, layer) => {
    for (const n of padVoicing(pickUp, pad.low))
      intro.note(PAD_CHANNELS[layer]!, introStart, introEnd - introStart, n, pad.velocity);
  });
  if (arrangement.keys) {
    const keys = arrangement.keys;
    const voicing = padVoicing(pickUp, keys.low);
    const strokes = keysStrokes(keys.pattern, false);
    strokes.forEach(([tick, notes, accent], i) => {
      const next = strokes[i + 1]?.[0] ?? BAR;
      for (const v of notes)
        intro.note(KEYS, lastIntroBar + tick, next - tick, voicing[v]!, keys.velocity * accent * 0.8, 4);
    });
  }
  if (arrangement.drums) playDrums(intro, lastIntroBar, drumFill(arrangement.drums.pattern));
  // Back to full expression once the intro has rung out, before the loop starts.
  for (const ch of PAD_CHANNELS.slice(0, arrangement.pads.length))
    intro.control(ch, introEnd + BAR, CC_EXPRESSION, 127);

  // The loop: A and B variations of the progression taking turns; a crash opens each A, a fill ends each B.
  const loopStart = layout.loop * BAR;
  const loopEnd = loopStart + timing.loopCycles * chords.length * chordTicks;
  const loop = new Section(loopEnd, random);
  for (let cycle = 0; cycle < timing.loopCycles; cycle++) {
    const full = cycle % 2 === 1;
    chords.forEach((chord, i) => {
      const start = loopStart + (cycle * chords.length + i) * chordTicks;
      playChord(loop, arrangement, chord, i, start, full, full && i === chords.length - 1);
      if (arrangement.drums && !full && i === 0) loop.note(DRUMS, start, 2 * BAR, CRASH, 84, 4);
    });
  }

  // The outro follows the loop's last chord (played again here, so its tails ring into the outro as they
  // would after a loop): the first chord held and let ring, with one last kick and crash.
  const leadStart = layout.outroLead * BAR;
  const lastChord = loopEnd - chordTicks;
  const lead = loop.events
    .filter((e) => (e.type === 'noteOff' ? e.tick > lastChord : e.tick >= lastChord))
    .map((e) => ({ ...e, tick: e.tick - lastChord + leadStart }));
  const outroStart = layout.outro * BAR;
  const outroEnd = outroStart + timing.outroBars * BAR;
  const outro = new Section(layout.end * BAR, random);
  const tonic = chords[0]!;
  arrangement.pads.forEach((pad, layer) => {
    for (const n of padVoicing(tonic, pad.low))
      outro.note(PAD_CHANNELS[layer]!, outroStart, outroEnd - outroStart, n, pad.velocity);
  });
  if (arrangement.keys) {
    const keys = arrangement.keys;
    padVoicing(tonic, keys.low).forEach((n, i) =>
      outro.note(
        KEYS,
        outroStart + i * EIGHTH,
        outroEnd - outroStart - i * EIGHTH,
        n,
        keys.velocity * (1 - i * 0.08),
      ),
    );
  }
  if (arrangement.bass)
    outro.note(
      BASS,
      outroStart,
      outroEnd - outroStart,
      bassNote(tonic, arrangement.bass.low),
      arrangement.bass.velocity,
    );
  if (arrangement.bell)
    outro.note(
      BELL,
      outroStart,
      outroEnd - outroStart,
      padVoicing(tonic, arrangement.bell.low)[3]!,
      arrangement.bell.velocity,
    );
  if (arrangement.drums) {
    outro.note(DRUMS, outroStart, BEAT, KICK, 100);
    outro.note(DRUMS, outroStart, layout.end * BAR - outroStart, CRASH, 88);
  }

  events.push(...intro.events, ...loop.events, ...lead, ...outro.events);
  return { timing, layout, song: { ppq: PPQ, events, endTick: layout.end * BAR } };
}
