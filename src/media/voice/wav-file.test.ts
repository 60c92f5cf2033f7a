import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWav } from './wav-file.ts';

function wav(opts: {
  channels: number;
  sampleRate: number;
  frames: number[][];
  dataSize?: number;
  extraChunk?: boolean;
}) {
  const data = Buffer.alloc(opts.frames.length * opts.channels * 2);
  opts.frames.forEach((frame, i) =>
    frame.forEach((v, c) => data.writeInt16LE(v, 2 * (i * opts.channels + c))),
  );
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(opts.channels, 10);
  fmt.writeUInt32LE(opts.sampleRate, 12);
  fmt.writeUInt32LE(opts.sampleRate * opts.channels * 2, 16);
  fmt.writeUInt16LE(opts.channels * 2, 20);
  fmt.writeUInt16LE(16, 22);
  // An odd-sized chunk before the data, as some writers add (LIST/INFO), padded to an even length.
  const list = opts.extraChunk
    ? Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')])
    : Buffer.alloc(0);
  const head = Buffer.alloc(8);
  head.write('data', 0, 'ascii');
  head.writeUInt32LE(opts.dataSize ?? data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, head, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

void test('reads mono 16-bit samples and the exact duration', () => {
  const audio = parseWav(wav({ channels: 1, sampleRate: 8000, frames: [[0], [16384], [-32768], [32767]] }));
  assert.equal(audio.sampleRate, 8000);
  assert.equal(audio.durationSec, 4 / 8000);
  assert.deepEqual([...audio.samples], [0, 0.5, -1, 32767 / 32768]);
});

void test('averages stereo channels and skips chunks before the data', () => {
  const audio = parseWav(
    wav({
      channels: 2,
      sampleRate: 48000,
      frames: [
        [16384, 0],
        [-16384, -16384],
      ],
      extraChunk: true,
    }),
  );
  assert.deepEqual([...audio.samples], [0.25, -0.5]);
});

void test('a streamed file with an unknown data size is read to its end', () => {
  const audio = parseWav(
    wav({ channels: 1, sampleRate: 16000, frames: [[1], [2], [3]], dataSize: 0xffffffff }),
  );
  assert.equal(audio.samples.length, 3);
});

void test('rejects what is not a 16-bit PCM WAV', () => {
  assert.throws(() => parseWav(Buffer.from('ID3 not a wave file')), /RIFF\/WAVE/);
  const eightBit = wav({ channels: 1, sampleRate: 8000, frames: [[0]] });
  eightBit.writeUInt16LE(8, 34);
  assert.throws(() => parseWav(eightBit), /unsupported WAV encoding/);
});
