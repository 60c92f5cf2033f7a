// Writes a Standard MIDI File (format 0: one track, every channel) from timed events: all a General MIDI
// synthesizer needs to play an arrangement. No MIDI package is installed, and the format is small.

export type MidiEvent =
  | { tick: number; type: 'tempo'; microsPerQuarter: number }
  | { tick: number; type: 'program'; channel: number; program: number }
  | { tick: number; type: 'control'; channel: number; controller: number; value: number }
  | { tick: number; type: 'noteOn'; channel: number; note: number; velocity: number }
  | { tick: number; type: 'noteOff'; channel: number; note: number };

export interface MidiSong {
  /** Ticks per quarter note. */
  ppq: number;
  events: MidiEvent[];
  /** Tick of the end of the track (at least the last event's). */
  endTick: number;
}

function checkRange(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new Error(`MIDI ${name} ${value} is out of 0–${max}`);
}

/** A variable-length quantity: 7 bits per byte, most significant first, the high bit set on all but the last. */
export function variableLength(value: number): number[] {
  checkRange('delta time', value, 0x0fffffff);
  const bytes = [value & 0x7f];
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return bytes;
}

function eventBytes(event: MidiEvent): number[] {
  if (event.type === 'tempo') {
    const t = event.microsPerQuarter;
    checkRange('tempo', t, 0xffffff);
    return [0xff, 0x51, 0x03, (t >>> 16) & 0xff, (t >>> 8) & 0xff, t & 0xff];
  }
  checkRange('channel', event.channel, 15);
  switch (event.type) {
    case 'program':
      checkRange('program', event.program, 127);
      return [0xc0 | event.channel, event.program];
    case 'control':
      checkRange('controller', event.controller, 127);
      checkRange('control value', event.value, 127);
      return [0xb0 | event.channel, event.controller, event.value];
    case 'noteOn':
      checkRange('note', event.note, 127);
      // Velocity 0 would mean note-off.
      checkRange('velocity', event.velocity, 127);
      if (event.velocity === 0) throw new Error('MIDI note-on velocity must be 1–127');
      return [0x90 | event.channel, event.note, event.velocity];
    case 'noteOff':
      checkRange('note', event.note, 127);
      return [0x80 | event.channel, event.note, 0];
  }
}

/**
 * Order of events at one tick: tempo and set-up first, then note-offs before note-ons, so a note repeated
 * at the tick its previous stroke ends is released and struck again rather than cut off.
 */
const ORDER: Record<MidiEvent['type'], number> = { tempo: 0, program: 1, control: 2, noteOff: 3, noteOn: 4 };

/** The bytes of a format-0 Standard MIDI File holding `song`. */
export function writeMidiFile(song: MidiSong): Uint8Array {
  checkRange('division', song.ppq, 0x7fff);
  const events = song.events
    .map((event, index) => ({ event, index }))
    .sort(
      (a, b) => a.event.tick - b.event.tick || ORDER[a.event.type] - ORDER[b.event.type] || a.index - b.index,
    )
    .map((e) => e.event);
  const track: number[] = [];
  let tick = 0;
  for (const event of events) {
    if (!Number.isInteger(event.tick) || event.tick < 0)
      throw new Error(`MIDI tick ${event.tick} is not a whole number ≥ 0`);
    track.push(...variableLength(event.tick - tick), ...eventBytes(event));
    tick = event.tick;
  }
  if (song.endTick < tick)
    throw new Error(`MIDI end tick ${song.endTick} is before the last event (${tick})`);
  track.push(...variableLength(song.endTick - tick), 0xff, 0x2f, 0x00);

  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, song.ppq >>> 8, song.ppq & 0xff];
  const length = track.length;
  const trackHeader = [
    0x4d,
    0x54,
    0x72,
    0x6b,
    length >>> 24,
    (length >>> 16) & 0xff,
    (length >>> 8) & 0xff,
    length & 0xff,
  ];
  return Uint8Array.from([...header, ...trackHeader, ...track]);
}
