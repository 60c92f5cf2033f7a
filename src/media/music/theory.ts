// Just enough music theory to voice chord progressions for the generated beds.

const PITCH_CLASS: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

const QUALITIES: Record<string, number[]> = {
  '': [0, 4, 7],
  m: [0, 3, 7],
  maj7: [0, 4, 7, 11],
  m7: [0, 3, 7, 10],
  '7': [0, 4, 7, 10],
  sus2: [0, 2, 7],
  sus4: [0, 5, 7],
  add9: [0, 4, 7, 14],
  madd9: [0, 3, 7, 14],
};

export interface Chord {
  name: string;
  /** Pitch class of the root, 0 = C. */
  root: number;
  /** Semitones above the root. */
  intervals: number[];
}

/** Parses chord names such as C, F#m, Bbmaj7, Am7, Dsus4, Eadd9. */
export function parseChord(name: string): Chord {
  const m = /^([A-G])([#b]?)(.*)$/.exec(name);
  const intervals = m ? QUALITIES[m[3]!] : undefined;
  if (!m || !intervals) throw new Error(`unknown chord: ${name}`);
  const accidental = m[2] === '#' ? 1 : m[2] === 'b' ? -1 : 0;
  return { name, root: (PITCH_CLASS[m[1]!]! + accidental + 12) % 12, intervals };
}

/** The chord's tones folded into the octave starting at `low` (MIDI), sorted upward. */
export function voiceInOctave(chord: Chord, low: number): number[] {
  const tones = chord.intervals.map((i) => {
    const pc = (chord.root + i) % 12;
    return low + ((((pc - low) % 12) + 12) % 12);
  });
  return [...new Set(tones)].sort((a, b) => a - b);
}

/**
 * A four-voice pad voicing: the chord tones folded into one octave (close voicing, so consecutive
 * chords move by small steps), with the root doubled an octave up when the chord has only three tones.
 */
export function padVoicing(chord: Chord, low: number): number[] {
  const tones = voiceInOctave(chord, low);
  if (tones.length >= 4) return tones.slice(0, 4);
  const root = tones.find((t) => t % 12 === chord.root)!;
  return [...tones, root + 12].sort((a, b) => a - b);
}

/** The root of the chord in the octave starting at `low`. */
export function bassNote(chord: Chord, low: number): number {
  return low + ((((chord.root - low) % 12) + 12) % 12);
}
