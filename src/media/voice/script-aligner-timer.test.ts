import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { matchWordSequences, scriptAlignerTimer, type ScriptAligner } from './script-aligner-timer.ts';
import { splitScript } from './script-words.ts';

const run = promisify(execFile);

void test('matchWordSequences pairs script words with recognized words in order', () => {
  const cases: [string[], string[], number[]][] = [
    [
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      [0, 1, 2],
    ],
    [
      ['the', 'cat', 'the', 'dog'],
      ['the', 'dog'],
      [0, -1, -1, 1],
    ],
    [
      ['honey', 'never', 'spoils'],
      ['honey', 'uh', 'never', 'spoils'],
      [0, 2, 3],
    ],
    [['two', 'thousand'], ['2000'], [-1, -1]],
    [[], ['x'], []],
  ];
  for (const [script, aligned, matched] of cases)
    assert.deepEqual(matchWordSequences(script, aligned), matched);
});

void test('a plugged-in aligner gets the script text, and its words are mapped back and completed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'aligner-test-'));
  try {
    const audioPath = join(dir, 'tone.wav');
    // 0.2 s silence, 1 s tone, 0.2 s silence: the segment's speech is 0.2–1.2 s.
    await run('ffmpeg', [
      ...[
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=300:duration=1',
        '-af',
        'adelay=200,apad=pad_dur=0.2',
      ],
      ...['-ar', '16000', '-ac', '1', audioPath],
    ]);
    const calls: { text: string; language?: string }[] = [];
    const aligner: ScriptAligner = async (_path, text, opts) => {
      calls.push({ text, language: opts?.language });
      return [
        { word: 'Honey', start: 0.2, end: 0.5 },
        { word: 'SPOILS!', start: 0.8, end: 1.2 },
      ];
    };
    const timer = scriptAlignerTimer(aligner, (language) => language === 'en');
    assert.equal(timer.supports('en'), true);
    assert.equal(timer.supports('de'), false);
    const words = splitScript('Honey never spoils.', 'en').flatMap((s) => s.words);
    const timed = await timer.time({ audioPath, language: 'en', segments: [{ start: 0, end: 1.4, words }] });
    assert.deepEqual(calls, [{ text: 'Honey never spoils.', language: 'en' }]);
    assert.deepEqual(timed, {
      source: 'aligned',
      interpolated: 1,
      words: [
        { word: 'Honey', start: 0.2, end: 0.5 },
        { word: 'never', start: 0.5, end: 0.8 },
        { word: 'spoils.', start: 0.8, end: 1.2 },
      ],
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
