import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { alignScript, AlignmentUnsupportedError } from './align.ts';
import { scriptWords } from './tokenize.ts';

const FIRST = 'Reelsmith turned the long interview into 42 short clips.';
const SECOND = 'Every clip kept the speaker in the centre of the frame.';

let dir = '';
let joined = '';
let joinSec = 0;
let firstOnly = '';

async function synthesize(text: string, out: string): Promise<void> {
  const raw = `${out}.22k.wav`;
  await runProcess('espeak-ng', ['-v', 'en-us', '-w', raw, text]);
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    raw,
    '-ar',
    '16000',
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
    out,
  ]);
}

async function durationOf(path: string): Promise<number> {
  const { stdout } = await runProcess('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    path,
  ]);
  return Number(stdout.trim());
}

function assertOrderedWithin(
  words: readonly WordTiming[],
  expected: readonly string[],
  durationSec: number,
): void {
  assert.deepEqual(
    words.map((w) => w.word),
    expected,
  );
  let previousEnd = 0;
  for (const w of words) {
    assert.ok(w.start >= previousEnd - 1e-9, `${w.word} starts before the previous word ends`);
    assert.ok(w.end > w.start, `${w.word} has no duration`);
    // Times are rounded to whole milliseconds, so the last word may end up to 0.5 ms past the last sample.
    assert.ok(
      w.end <= durationSec + 0.0005 + 1e-9,
      `${w.word} ends at ${w.end}s, after the audio (${durationSec}s)`,
    );
    previousEnd = w.end;
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'align-test-'));
  firstOnly = join(dir, 'first.wav');
  const second = join(dir, 'second.wav');
  await Promise.all([synthesize(FIRST, firstOnly), synthesize(SECOND, second)]);
  joinSec = await durationOf(firstOnly);
  joined = join(dir, 'joined.wav');
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    firstOnly,
    '-i',
    second,
    '-filter_complex',
    '[0:a][1:a]concat=n=2:v=0:a=1',
    '-c:a',
    'pcm_s16le',
    joined,
  ]);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('alignScript (real pocketsphinx)', () => {
  test('places every word in order, and the second sentence starts at the join', async () => {
    const words = await alignScript(joined, `${FIRST} ${SECOND}`);
    const expected = scriptWords(`${FIRST} ${SECOND}`);
    const durationSec = await durationOf(joined);
    assertOrderedWithin(words, expected, durationSec);
    const secondStart = words[scriptWords(FIRST).length]!;
    assert.equal(secondStart.word, 'Every');
    assert.ok(
      Math.abs(secondStart.start - joinSec) <= 0.15,
      `"Every" at ${secondStart.start}s, join at ${joinSec}s`,
    );
    const lastOfFirst = words[scriptWords(FIRST).length - 1]!;
    assert.ok(
      lastOfFirst.end <= joinSec + 0.05,
      `"clips" ends at ${lastOfFirst.end}s, after the join ${joinSec}s`,
    );
    assert.ok(words[0]!.start < 0.2, `first word at ${words[0]!.start}s`);
  });

  test('words missing from the audio are still returned, and the spoken ones keep their places', async () => {
    const [words, exact] = await Promise.all([
      alignScript(firstOnly, `${FIRST} ${SECOND}`),
      alignScript(firstOnly, FIRST),
    ]);
    assertOrderedWithin(words, scriptWords(`${FIRST} ${SECOND}`), joinSec);
    exact.forEach((w, i) => {
      assert.ok(Math.abs(words[i]!.start - w.start) <= 0.05, `${w.word}: ${words[i]!.start}s vs ${w.start}s`);
    });
  });

  test('other languages are refused with a typed error', async () => {
    await assert.rejects(alignScript(joined, 'Guten Tag', { language: 'de-DE' }), AlignmentUnsupportedError);
  });

  test('empty text gives no words', async () => {
    assert.deepEqual(await alignScript(joined, ' ... '), []);
  });

  test('an abort signal stops the alignment', async () => {
    await assert.rejects(alignScript(joined, FIRST, { signal: AbortSignal.abort() }));
  });
});
