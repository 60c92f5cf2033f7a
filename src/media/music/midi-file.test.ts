import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { variableLength, writeMidiFile } from './midi-file.ts';

describe('variableLength', () => {
  const cases: [number, number[]][] = [
    [0, [0x00]],
    [0x40, [0x40]],
    [0x7f, [0x7f]],
    [0x80, [0x81, 0x00]],
    [0x2000, [0xc0, 0x00]],
    [0x3fff, [0xff, 0x7f]],
    [0x4000, [0x81, 0x80, 0x00]],
    [0x0fffffff, [0xff, 0xff, 0xff, 0x7f]],
  ];
  for (const [value, bytes] of cases)
    test(`0x${value.toString(16)}`, () => assert.deepEqual(variableLength(value), bytes));
  test('refuses what does not fit in four bytes', () =>
    assert.throws(() => variableLength(0x10000000), /out of/));
});

describe('writeMidiFile', () => {
  test('a format-0 file: header, tempo, program, a note, end of track', () => {
    const bytes = writeMidiFile({
      ppq: 480,
      endTick: 960,
      events: [
        { tick: 480, type: 'noteOff', channel: 0, note: 60 },
        { tick: 0, type: 'noteOn', channel: 0, note: 60, velocity: 100 },
        { tick: 0, type: 'program', channel: 0, program: 4 },
        { tick: 0, type: 'tempo', microsPerQuarter: 500000 },
      ],
    });
    assert.deepEqual(
      [...bytes],
      [
        ...[0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xe0],
        ...[0x4d, 0x54, 0x72, 0x6b, 0, 0, 0, 24],
        ...[0x00, 0xff, 0x51, 0x03, 0x07, 0xa1, 0x20],
        ...[0x00, 0xc0, 0x04],
        ...[0x00, 0x90, 60, 100],
        ...[0x83, 0x60, 0x80, 60, 0],
        ...[0x83, 0x60, 0xff, 0x2f, 0x00],
      ],
    );
  });

  test('at one tick a note is released before it is struck again, in any input order', () => {
    const bytes = writeMidiFile({
      ppq: 96,
      endTick: 96,
      events: [
        { tick: 48, type: 'noteOn', channel: 9, note: 42, velocity: 60 },
        { tick: 48, type: 'noteOff', channel: 9, note: 42 },
        { tick: 48, type: 'control', channel: 9, controller: 7, value: 90 },
      ],
    });
    assert.deepEqual(
      [...bytes.subarray(22)],
      [0x30, 0xb9, 7, 90, 0x00, 0x89, 42, 0, 0x00, 0x99, 42, 60, 0x30, 0xff, 0x2f, 0x00],
    );
  });

  test('values outside MIDI are refused', () => {
    const song = (event: Parameters<typeof writeMidiFile>[0]['events'][number]) => ({
      ppq: 480,
      endTick: 0,
      events: [event],
    });
    assert.throws(
      () => writeMidiFile(song({ tick: 0, type: 'noteOn', channel: 16, note: 60, velocity: 1 })),
      /channel 16/,
    );
    assert.throws(
      () => writeMidiFile(song({ tick: 0, type: 'noteOn', channel: 0, note: 128, velocity: 1 })),
      /note 128/,
    );
    assert.throws(
      () => writeMidiFile(song({ tick: 0, type: 'noteOn', channel: 0, note: 60, velocity: 0 })),
      /velocity/,
    );
    assert.throws(
      () => writeMidiFile(song({ tick: 1.5, type: 'noteOff', channel: 0, note: 60 })),
      /tick 1.5/,
    );
    assert.throws(
      () =>
        writeMidiFile({
          ppq: 480,
          endTick: 10,
          events: [{ tick: 20, type: 'noteOff', channel: 0, note: 60 }],
        }),
      /end tick 10/,
    );
  });
});
