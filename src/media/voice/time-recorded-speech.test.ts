import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sentenceEstimateTimer } from './estimate-timer.ts';
import { timeRecordedSpeech } from './time-recorded-speech.ts';

const run = promisify(execFile);
// A human LibriVox recording shipped with pocketsphinx's test data, with its transcript.
const RECORDING = '/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav';
const TEXT = 'He was not an ill-disposed young man.';

async function speechBounds(path: string): Promise<{ start: number; end: number }> {
  const { stderr } = await run('ffmpeg', [
    '-i',
    path,
    '-af',
    'silencedetect=noise=-35dB:d=0.1',
    '-f',
    'null',
    '-',
  ]);
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  return { start: ends[0]!, end: starts.at(-1)! };
}

void test('a human English recording is force-aligned word by word', async () => {
  const timed = await timeRecordedSpeech({
    audioPath: RECORDING,
    text: TEXT,
    language: 'en',
    espeakVoice: 'gmw/en-US',
  });
  assert.equal(timed.source, 'aligned');
  assert.equal(timed.interpolated, 0);
  assert.equal(timed.durationSec, 2.99);
  assert.deepEqual(
    timed.words.map((w) => w.word),
    TEXT.split(' '),
  );
  for (let i = 1; i < timed.words.length; i++) assert.ok(timed.words[i]!.start >= timed.words[i - 1]!.end);
  const bounds = await speechBounds(RECORDING);
  assert.ok(
    Math.abs(timed.words[0]!.start - bounds.start) <= 0.15,
    `first word ${timed.words[0]!.start} vs ${bounds.start}`,
  );
  assert.ok(
    Math.abs(timed.words.at(-1)!.end - bounds.end) <= 0.15,
    `last word ${timed.words.at(-1)!.end} vs ${bounds.end}`,
  );
});

void test("the estimate places the same recording's words inside its speech", async () => {
  const timed = await timeRecordedSpeech({
    audioPath: RECORDING,
    text: TEXT,
    language: 'en',
    espeakVoice: 'gmw/en-US',
    timers: [sentenceEstimateTimer()],
  });
  assert.equal(timed.source, 'sentence-estimated');
  const bounds = await speechBounds(RECORDING);
  assert.ok(Math.abs(timed.words[0]!.start - bounds.start) <= 0.15);
  assert.ok(Math.abs(timed.words.at(-1)!.end - bounds.end) <= 0.15);
});
