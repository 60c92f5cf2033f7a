import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../process/run-process.ts';
import { PocketsphinxRecognizer } from './pocketsphinx-recognizer.ts';
import { UnsupportedLanguageError } from './recognizer.ts';
import { normalizeWords, wordErrorRate, wordErrors } from './word-error-rate.ts';

// Real recordings and reference texts from Debian's pocketsphinx-testdata.
const DATA = '/usr/share/pocketsphinx/test/data';
const BOOK = `${DATA}/librivox/sense_and_sensibility_01_austen_64kb-0920.wav`;
const BOOK_TEXT =
  'had he married a more a amiable woman he might have been made still more respectable than he was';
const SHORT = `${DATA}/librivox/sense_and_sensibility_01_austen_64kb-0880.wav`;
const GOFORWARD_TEXT = 'go forward ten meters';

let dir = '';
let goforward = '';
let joined = '';
const GAP_SEC = 1.5;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asr-test-'));
  goforward = join(dir, 'goforward.wav');
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    's16le',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-i',
    `${DATA}/goforward.raw`,
    goforward,
  ]);
  joined = join(dir, 'joined.wav');
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    goforward,
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=16000:cl=mono:d=${GAP_SEC}`,
    '-i',
    SHORT,
    '-filter_complex',
    '[0:a][1:a][2:a]concat=n=3:v=0:a=1',
    '-c:a',
    'pcm_s16le',
    joined,
  ]);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PocketsphinxRecognizer (real pocketsphinx)', () => {
  const recognizer = new PocketsphinxRecognizer();

  test('transcribes real recordings with a word error rate under the measured bound', async () => {
    const [book, demo] = await Promise.all([recognizer.transcribe(BOOK), recognizer.transcribe(goforward)]);
    const bookErrors = wordErrors(normalizeWords(BOOK_TEXT), normalizeWords(book.text));
    const demoErrors = wordErrors(normalizeWords(GOFORWARD_TEXT), normalizeWords(demo.text));
    // Measured: 0 % on the demo and 21 % on the book sentence (4 of 19 words).
    assert.equal(wordErrorRate(demoErrors), 0, demo.text);
    assert.ok(wordErrorRate(bookErrors) <= 0.3, `WER ${wordErrorRate(bookErrors)}: ${book.text}`);
    assert.equal(book.language, 'en');
    assert.ok(Math.abs(book.durationSec - 6.05) < 0.01);
    // Confidence tells right from wrong: correctly recognized words score higher on average.
    const right = new Set(bookErrors.matches.map(([, h]) => h));
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const confidences = book.words.map((w) => w.confidence ?? -1);
    assert.ok(confidences.every((c) => c >= 0 && c <= 1));
    assert.ok(
      mean(confidences.filter((_, i) => right.has(i))) > mean(confidences.filter((_, i) => !right.has(i))),
    );
    let previousEnd = 0;
    for (const w of book.words) {
      assert.ok(w.start >= previousEnd - 1e-9 && w.end > w.start && w.end <= book.durationSec);
      previousEnd = w.end;
    }
  });

  test('long audio is cut at the pause, decoded in parallel chunks and put back on one timeline', async () => {
    const chunked = new PocketsphinxRecognizer({ maxChunkSec: 4, minChunkSec: 1 });
    const progress: number[] = [];
    const [whole, first, second] = await Promise.all([
      chunked.transcribe(joined, { onProgress: (f) => progress.push(f) }),
      recognizer.transcribe(goforward),
      recognizer.transcribe(SHORT),
    ]);
    const offset = first.durationSec + GAP_SEC;
    const alone = [
      ...first.words,
      ...second.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset })),
    ];
    // A chunk starts inside the pause, so its decoder sees slightly different audio and may change a doubtful
    // word; the words both runs agree on must sit at the same place on the timeline.
    const agreed = wordErrors(
      alone.map((w) => w.word),
      whole.words.map((w) => w.word),
    ).matches;
    assert.ok(agreed.length >= alone.length - 1, `${whole.text} vs ${first.text} ${second.text}`);
    const shifts = agreed
      .flatMap(([a, h]) => [whole.words[h]!.start - alone[a]!.start, whole.words[h]!.end - alone[a]!.end])
      .map(Math.abs)
      .sort((x, y) => x - y);
    // A wrong chunk offset would shift every word; a changed neighbour may move one boundary a little.
    assert.ok(
      shifts[Math.floor(shifts.length / 2)]! <= 0.02,
      `median shift ${shifts[Math.floor(shifts.length / 2)]}s`,
    );
    assert.ok(shifts[shifts.length - 1]! <= 0.15, `largest shift ${shifts[shifts.length - 1]}s`);
    assert.equal(progress[0], 0);
    assert.equal(progress[progress.length - 1], 1);
    assert.ok(progress.length >= 3, 'progress after each chunk');
    assert.deepEqual(
      [...progress].sort((a, b) => a - b),
      progress,
    );
  });

  test('refuses a language it does not know', async () => {
    assert.deepEqual(recognizer.languages(), ['en']);
    await assert.rejects(
      recognizer.transcribe(goforward, { languageHint: 'fr-FR' }),
      UnsupportedLanguageError,
    );
  });
});
