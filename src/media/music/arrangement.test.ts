import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bedScore, PPQ, type BedArrangement } from './arrangement.ts';
import { seedMusicRecipes } from './beds.ts';
import type { MidiEvent } from './midi-file.ts';

const BAR = 4 * PPQ;

type NoteEvent = Extract<MidiEvent, { type: 'noteOn' | 'noteOff' }>;
interface Note {
  channel: number;
  note: number;
  on: number;
  off: number;
  velocity: number;
}

/** Pairs every note-on with the next note-off of its channel and key. */
function notes(events: MidiEvent[]): Note[] {
  const sorted = events
    .filter((e): e is NoteEvent => e.type === 'noteOn' || e.type === 'noteOff')
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        a.e.tick - b.e.tick ||
        (a.e.type === 'noteOff' ? -1 : 1) - (b.e.type === 'noteOff' ? -1 : 1) ||
        a.i - b.i,
    )
    .map(({ e }) => e);
  const open = new Map<string, NoteEvent & { type: 'noteOn' }>();
  const out: Note[] = [];
  for (const e of sorted) {
    const key = `${e.channel}:${e.note}`;
    if (e.type === 'noteOn') {
      assert.ok(!open.has(key), `note ${key} struck again at ${e.tick} while sounding`);
      open.set(key, e);
    } else {
      const on = open.get(key);
      if (!on) continue;
      open.delete(key);
      out.push({ channel: e.channel, note: e.note, on: on.tick, off: e.tick, velocity: on.velocity });
    }
  }
  assert.equal(open.size, 0, `notes never released: ${[...open.keys()].join(', ')}`);
  return out;
}

const drive = seedMusicRecipes().find((b) => b.id === 'energetic-drive')!;

describe('bedScore', () => {
  const score = bedScore(drive.id, drive.bpm, drive.arrangement);
  const all = notes(score.song.events);
  const { layout, timing } = score;
  const loopStart = layout.loop * BAR;
  const loopEnd = loopStart + (timing.loopSamples / timing.barSamples) * BAR;

  test('tempo and one instrument per part set at the start; drums on channel 10', () => {
    const setUp = score.song.events.filter(
      (e) => e.tick === 0 && (e.type === 'tempo' || e.type === 'program'),
    );
    assert.deepEqual(setUp, [
      { tick: 0, type: 'tempo', microsPerQuarter: 500000 },
      { tick: 0, type: 'program', channel: 0, program: 90 },
      { tick: 0, type: 'program', channel: 1, program: 81 },
      { tick: 0, type: 'program', channel: 2, program: 38 },
      { tick: 0, type: 'program', channel: 9, program: 24 },
    ]);
  });

  test('every note is released, none overlaps itself, all within the render', () => {
    for (const n of all) {
      assert.ok(n.off > n.on && n.on >= 0 && n.off <= score.song.endTick, JSON.stringify(n));
      assert.ok(n.velocity >= 1 && n.velocity <= 127);
    }
  });

  test('no note of the loop sounds past its end: its tail is what rings on', () => {
    const loop = all.filter((n) => n.on >= loopStart && n.on < loopEnd);
    assert.ok(loop.length > 200, String(loop.length));
    for (const n of loop) assert.ok(n.off <= loopEnd, JSON.stringify(n));
    // Nothing else sounds during the loop or its tail.
    const tailEnd = loopEnd + timing.tailBars * BAR;
    for (const n of all.filter((m) => m.on < loopStart || m.on >= loopEnd)) {
      assert.ok(n.off <= loopStart - BAR || n.on >= tailEnd, `a note of another section at ${n.on}–${n.off}`);
    }
  });

  test('the loop: bass, pads, keys and drums on every bar; B adds a fill before the A crash', () => {
    const loop = all.filter((n) => n.on >= loopStart && n.on < loopEnd);
    const bars = (loopEnd - loopStart) / BAR;
    for (let b = 0; b < bars; b++) {
      const inBar = loop.filter((n) => n.on >= loopStart + b * BAR && n.on < loopStart + (b + 1) * BAR);
      assert.deepEqual([...new Set(inBar.map((n) => n.channel))].sort(), [0, 1, 2, 9], `bar ${b}`);
    }
    const crashes = loop.filter((n) => n.channel === 9 && n.note === 49).map((n) => n.on - loopStart);
    assert.deepEqual(crashes, [0]);
    const claps = loop.filter((n) => n.channel === 9 && n.note === 39).map((n) => n.on - loopStart);
    // The B cycle's last bar has four sixteenth claps on beat 4 instead of one.
    assert.equal(claps.filter((t) => t >= 7 * BAR).length, 5);
    assert.equal(claps.filter((t) => t >= 3 * BAR && t < 4 * BAR).length, 2);
  });

  test('the pads play the progression: Am F C G, each a bar', () => {
    const pads = all.filter((n) => n.channel === 0 && n.on >= loopStart && n.on < loopStart + 4 * BAR);
    const chordAt = (bar: number) =>
      pads
        .filter((n) => n.on === loopStart + bar * BAR)
        .map((n) => n.note % 12)
        .sort((a, b) => a - b);
    assert.deepEqual([0, 1, 2, 3].map(chordAt), [
      [0, 4, 9, 9],
      [0, 5, 5, 9],
      [0, 0, 4, 7],
      [2, 7, 7, 11],
    ]);
  });

  test('the intro is the last chord (G) as a pick-up; the outro lead repeats the loop’s last chord', () => {
    const introPads = all.filter((n) => n.channel === 0 && n.on < timing.introBars * BAR);
    assert.deepEqual(
      [...new Set(introPads.map((n) => n.note % 12))].sort((a, b) => a - b),
      [2, 7, 11],
    );
    const lastChord = all
      .filter((n) => n.on >= loopEnd - BAR && n.on < loopEnd)
      .map((n) => [n.channel, n.note, n.on - (loopEnd - BAR), n.off - n.on]);
    const lead = all
      .filter((n) => n.on >= layout.outroLead * BAR && n.on < layout.outro * BAR)
      .map((n) => [n.channel, n.note, n.on - layout.outroLead * BAR, n.off - n.on]);
    assert.deepEqual(lead, lastChord);
    const outroBass = all.filter((n) => n.channel === 2 && n.on >= layout.outro * BAR);
    assert.deepEqual(
      outroBass.map((n) => [n.note % 12, n.off - n.on]),
      [[9, timing.outroBars * BAR]],
    );
  });

  test('the same bed always gets the same notes; another bed its own touch', () => {
    assert.deepEqual(bedScore(drive.id, drive.bpm, drive.arrangement).song, score.song);
    const other = notes(bedScore('other', drive.bpm, drive.arrangement).song.events);
    assert.notDeepEqual(
      other.map((n) => n.velocity),
      all.map((n) => n.velocity),
    );
  });
});

test('every catalogue bed scores: MIDI-valid notes, a drum channel only with drums', () => {
  for (const bed of seedMusicRecipes()) {
    const { song } = bedScore(bed.id, bed.bpm, bed.arrangement);
    const ns = notes(song.events);
    for (const n of ns) assert.ok(n.note >= 0 && n.note <= 127, `${bed.id}: ${n.note}`);
    assert.equal(
      ns.some((n) => n.channel === 9),
      bed.arrangement.drums !== undefined,
      bed.id,
    );
  }
});

test('a bed with a bell and two pad layers uses both pad channels and the bell in B only', () => {
  const arrangement: BedArrangement = {
    chords: ['C', 'G'],
    barsPerChord: 1,
    pads: [
      { program: 89, low: 55, velocity: 60 },
      { program: 48, low: 67, velocity: 50 },
    ],
    bell: { program: 9, low: 79, velocity: 50 },
    room: 0.4,
  };
  const score = bedScore('bell', 120, arrangement);
  const ns = notes(score.song.events);
  assert.deepEqual([...new Set(ns.map((n) => n.channel))].sort(), [0, 3, 4]);
  const loopStart = score.layout.loop * BAR;
  const cycle = 2 * BAR;
  const bells = ns.filter(
    (n) => n.channel === 3 && n.on >= loopStart && n.on < loopStart + score.timing.loopCycles * cycle,
  );
  for (const b of bells) assert.equal(Math.floor((b.on - loopStart) / cycle) % 2, 1, `bell at ${b.on}`);
  assert.ok(bells.length > 0);
});
