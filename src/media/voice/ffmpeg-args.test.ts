import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignmentRawArgs, concatWavArgs, tempoArgs, toWavArgs } from './ffmpeg-args.ts';

void test('concatWavArgs joins pieces in order into 48 kHz mono 16-bit WAV', () => {
  assert.deepEqual(concatWavArgs(['a.wav', 'b.wav'], 'out.wav'), [
    ...['-v', 'error', '-y', '-i', 'a.wav', '-i', 'b.wav'],
    ...['-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1[out]', '-map', '[out]'],
    ...['-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', 'out.wav'],
  ]);
});

void test('toWavArgs converts any audio to mono 16-bit WAV', () => {
  assert.deepEqual(toWavArgs('in.mp3', 'out.wav', 24000), [
    ...['-v', 'error', '-y', '-i', 'in.mp3', '-vn'],
    ...['-ar', '24000', '-ac', '1', '-c:a', 'pcm_s16le', 'out.wav'],
  ]);
});

void test('alignmentRawArgs writes padded 16 kHz headerless audio', () => {
  assert.deepEqual(alignmentRawArgs('in.wav', 'a.raw', 0.5), [
    ...['-v', 'error', '-y', '-i', 'in.wav', '-vn', '-af', 'apad=pad_dur=0.5'],
    ...['-ar', '16000', '-ac', '1', '-f', 's16le', 'a.raw'],
  ]);
});

void test('tempoArgs uses atempo', () => {
  assert.deepEqual(tempoArgs('in.wav', 'out.wav', 1.25), [
    ...['-v', 'error', '-y', '-i', 'in.wav', '-af', 'atempo=1.25'],
    ...['-ac', '1', '-c:a', 'pcm_s16le', 'out.wav'],
  ]);
});
