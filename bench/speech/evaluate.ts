// Measures the speech stack: recognition WER and speed on real recordings, alignment and recognition word
// boundaries on synthesized speech with known sentence joins, and long-form (chunked, parallel) throughput.
// Run: node --import tsx bench/speech/evaluate.ts [--tune lw=7,beam=1e-60] [--sections real,synth,long,diarize]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { alignScript } from '../../src/media/speech/align.ts';
import { diarize } from '../../src/media/speech/diarize.ts';
import { PocketsphinxRecognizer, RECOGNIZE_TUNING } from '../../src/media/speech/pocketsphinx-recognizer.ts';
import type { DecoderTuning } from '../../src/media/speech/pocketsphinx.ts';
import type { WordTiming } from '../../src/media/types.ts';
import {
  concatWithGaps,
  readSamples,
  speechSpan,
  SYNTH_SENTENCES,
  synthesizeSentences,
  testdataRecordings,
  type Recording,
} from './corpus.ts';
import {
  normalizeWords,
  wordErrorRate,
  wordErrors,
  type WordErrors,
} from '../../src/media/speech/word-error-rate.ts';
import { childCpuSeconds } from '../support/cpu-time.ts';

const { values } = parseArgs({
  options: {
    tune: { type: 'string', default: '' },
    sections: { type: 'string', default: 'real,synth,long,diarize' },
    'diarize-penalty': { type: 'string' },
    /** Chunk length bounds in seconds for long audio, "min,max". */
    chunk: { type: 'string' },
  },
});

function parseTuning(spec: string): DecoderTuning {
  const tuning: Record<string, number | boolean> = {};
  for (const pair of spec.split(',').filter(Boolean)) {
    const [key = '', value = ''] = pair.split('=');
    tuning[key] = value === 'yes' ? true : value === 'no' ? false : Number(value);
  }
  return tuning;
}

const tuning: DecoderTuning = { ...RECOGNIZE_TUNING, ...parseTuning(values.tune) };
const sections = new Set(values.sections.split(','));
const [minChunkSec, maxChunkSec] = (values.chunk ?? '').split(',').map(Number);
const recognizer = new PocketsphinxRecognizer({
  tuning,
  ...(minChunkSec && maxChunkSec ? { minChunkSec, maxChunkSec } : {}),
});
const rows: string[][] = [];

function addErrors(total: WordErrors, more: WordErrors): WordErrors {
  return {
    substitutions: total.substitutions + more.substitutions,
    deletions: total.deletions + more.deletions,
    insertions: total.insertions + more.insertions,
    referenceLength: total.referenceLength + more.referenceLength,
    matches: [],
  };
}

const EMPTY: WordErrors = { substitutions: 0, deletions: 0, insertions: 0, referenceLength: 0, matches: [] };
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const ms = (x: number): string => `${Math.round(x * 1000)} ms`;
const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

interface Cost {
  wallSec: number;
  cpuSec: number;
}

/** Wall time, and CPU time of the child processes, which is what the machine's other load does not inflate. */
async function timed<T>(fn: () => Promise<T>): Promise<[T, Cost]> {
  const t0 = performance.now();
  const c0 = childCpuSeconds();
  const result = await fn();
  return [result, { wallSec: (performance.now() - t0) / 1000, cpuSec: childCpuSeconds() - c0 }];
}

function rtf(cost: Cost, audioSec: number): string {
  return `${(cost.wallSec / audioSec).toFixed(3)} wall, ${(cost.cpuSec / audioSec).toFixed(3)} CPU`;
}

function addCost(a: Cost, b: Cost): Cost {
  return { wallSec: a.wallSec + b.wallSec, cpuSec: a.cpuSec + b.cpuSec };
}

/** Mean |start difference| and |end difference| of recognized words against the aligned timing of the same words. */
function boundaryDiffs(
  errors: WordErrors,
  aligned: readonly WordTiming[],
  recognized: readonly WordTiming[],
): number[] {
  const diffs: number[] = [];
  for (const [r, h] of errors.matches) {
    const a = aligned[r];
    const b = recognized[h];
    if (a && b) diffs.push(Math.abs(a.start - b.start), Math.abs(a.end - b.end));
  }
  return diffs;
}

async function evaluateReal(recordings: readonly Recording[]): Promise<void> {
  const byGroup = new Map<string, WordErrors>();
  let total = EMPTY;
  let audioSec = 0;
  let asrCost: Cost = { wallSec: 0, cpuSec: 0 };
  let alignCost: Cost = { wallSec: 0, cpuSec: 0 };
  const diffs: number[] = [];
  for (const rec of recordings) {
    const [transcript, took] = await timed(() => recognizer.transcribe(rec.audioPath));
    const [aligned, alignTook] = await timed(() => alignScript(rec.audioPath, rec.reference));
    asrCost = addCost(asrCost, took);
    alignCost = addCost(alignCost, alignTook);
    audioSec += transcript.durationSec;
    const errors = wordErrors(normalizeWords(rec.reference), normalizeWords(transcript.text));
    byGroup.set(rec.group, addErrors(byGroup.get(rec.group) ?? EMPTY, errors));
    total = addErrors(total, errors);
    diffs.push(...boundaryDiffs(errors, aligned, transcript.words));
    console.error(`${rec.id}: ${pct(wordErrorRate(errors))} | ${transcript.text}`);
  }
  for (const [group, errors] of byGroup) {
    rows.push([
      `Recognition WER, testdata ${group}`,
      `${errors.referenceLength} words`,
      pct(wordErrorRate(errors)),
    ]);
  }
  rows.push([
    `Recognition WER, all real recordings`,
    `${total.referenceLength} words, ${audioSec.toFixed(1)} s`,
    pct(wordErrorRate(total)),
  ]);
  rows.push([
    'Recognition RTF, real recordings (one at a time)',
    `${audioSec.toFixed(1)} s audio`,
    rtf(asrCost, audioSec),
  ]);
  rows.push(['Alignment RTF, real recordings', `${audioSec.toFixed(1)} s audio`, rtf(alignCost, audioSec)]);
  rows.push([
    'Recognition vs. forced alignment, mean word boundary difference',
    `${diffs.length} boundaries`,
    ms(mean(diffs)),
  ]);
}

async function evaluateSynth(work: string, voice: string): Promise<void> {
  const sentences = await synthesizeSentences(work, SYNTH_SENTENCES, voice);
  const truth: { onset: number; offset: number; firstWord: number; lastWord: number }[] = [];
  let cursor = 0;
  let wordIndex = 0;
  for (const sentence of sentences) {
    const samples = await readSamples(sentence.audioPath, work);
    const span = speechSpan(samples);
    const count = normalizeWords(sentence.text).length;
    truth.push({
      onset: cursor + span.onset,
      offset: cursor + span.offset,
      firstWord: wordIndex,
      lastWord: wordIndex + count - 1,
    });
    cursor += samples.length / 16000;
    wordIndex += count;
  }
  const joined = join(work, `synth-${voice}-all.wav`);
  await concatWithGaps(
    sentences.map((s) => s.audioPath),
    0,
    joined,
  );
  const text = sentences.map((s) => s.text).join(' ');
  const [aligned, alignTook] = await timed(() => alignScript(joined, text));
  const [transcript, asrTook] = await timed(() => recognizer.transcribe(joined));
  const reference = normalizeWords(text);
  const errors = wordErrors(reference, normalizeWords(transcript.text));
  const hypOf = new Map(errors.matches);
  const alignErr: number[] = [];
  const asrErr: number[] = [];
  for (const t of truth) {
    alignErr.push(
      Math.abs(aligned[t.firstWord]!.start - t.onset),
      Math.abs(aligned[t.lastWord]!.end - t.offset),
    );
    const first = hypOf.get(t.firstWord);
    const last = hypOf.get(t.lastWord);
    if (first !== undefined) asrErr.push(Math.abs(transcript.words[first]!.start - t.onset));
    if (last !== undefined) asrErr.push(Math.abs(transcript.words[last]!.end - t.offset));
  }
  console.error(`synth ${voice}: ${transcript.text}`);
  console.error(`synth ${voice} align errors (ms): ${alignErr.map((e) => Math.round(e * 1000)).join(' ')}`);
  const dur = transcript.durationSec;
  rows.push([
    `Alignment boundary error, espeak-ng ${voice}`,
    `${alignErr.length} sentence edges`,
    `mean ${ms(mean(alignErr))}, max ${ms(Math.max(...alignErr))}`,
  ]);
  rows.push([
    `Recognition boundary error, espeak-ng ${voice}`,
    `${asrErr.length} sentence edges`,
    `mean ${ms(mean(asrErr))}`,
  ]);
  rows.push([
    `Recognition WER, espeak-ng ${voice}`,
    `${reference.length} words, ${dur.toFixed(1)} s`,
    pct(wordErrorRate(errors)),
  ]);
  rows.push([
    `Alignment / recognition RTF, espeak-ng ${voice}`,
    `${dur.toFixed(1)} s audio`,
    `${rtf(alignTook, dur)} / ${rtf(asrTook, dur)}`,
  ]);
}

async function evaluateLong(work: string, recordings: readonly Recording[]): Promise<void> {
  const repeated = [...recordings, ...recordings, ...recordings];
  const joined = join(work, 'long-real.wav');
  await concatWithGaps(
    repeated.map((r) => r.audioPath),
    0.7,
    joined,
  );
  const reference = repeated.map((r) => r.reference).join(' ');
  const [transcript, asrTook] = await timed(() => recognizer.transcribe(joined));
  const [, alignTook] = await timed(() => alignScript(joined, reference));
  const errors = wordErrors(normalizeWords(reference), normalizeWords(transcript.text));
  const dur = transcript.durationSec;
  rows.push([
    `Recognition WER, real recordings joined (chunked, 2 workers)`,
    `${errors.referenceLength} words, ${dur.toFixed(1)} s`,
    pct(wordErrorRate(errors)),
  ]);
  rows.push(['Recognition RTF, joined (chunked, 2 workers)', `${dur.toFixed(1)} s audio`, rtf(asrTook, dur)]);
  rows.push(['Alignment RTF, joined (one grammar)', `${dur.toFixed(1)} s audio`, rtf(alignTook, dur)]);
}

interface Turn {
  audioPath: string;
  text: string;
  speaker: string;
}

/**
 * Joins turns into one recording, aligns the known text, diarizes, and scores the share of words given the
 * right speaker.
 */
async function diarizeTurns(
  work: string,
  name: string,
  turns: readonly Turn[],
): Promise<[number, number, number]> {
  const joined = join(work, `diarize-${name}.wav`);
  await concatWithGaps(
    turns.map((t) => t.audioPath),
    0.3,
    joined,
  );
  const truth = turns.flatMap((t) => normalizeWords(t.text).map(() => t.speaker));
  const words = await alignScript(joined, turns.map((t) => t.text).join(' '));
  const penalty = values['diarize-penalty'] === undefined ? undefined : Number(values['diarize-penalty']);
  const result = await diarize(joined, words, penalty === undefined ? {} : { penalty });
  // Accuracy under the best one-to-one mapping of found speakers to true ones (greedy by overlap): words of a
  // found speaker left without a partner count as wrong, so over-splitting is penalised.
  const overlap = new Map<string, number>();
  result.words.forEach((w, i) => {
    const key = `${w.speaker ?? ''}\u0000${truth[i]}`;
    overlap.set(key, (overlap.get(key) ?? 0) + 1);
  });
  const found = new Set<string>();
  const real = new Set<string>();
  let right = 0;
  for (const [key, count] of [...overlap].sort((a, b) => b[1] - a[1])) {
    const [speaker = '', truthLabel = ''] = key.split('\u0000');
    if (found.has(speaker) || real.has(truthLabel)) continue;
    found.add(speaker);
    real.add(truthLabel);
    right += count;
  }
  return [new Set(truth).size, result.speakers.length, right / result.words.length];
}

async function evaluateDiarization(work: string, recordings: readonly Recording[]): Promise<void> {
  const books = recordings.filter((r) => r.group === 'librivox');
  const cards = recordings.filter((r) => r.group === 'cards');
  const reader = books.map((r) => ({ audioPath: r.audioPath, text: r.reference, speaker: 'reader' }));
  const twoReaders = books.flatMap((r, i) => {
    const card = cards[i];
    const turn = { audioPath: r.audioPath, text: r.reference, speaker: 'reader' };
    return card ? [turn, { audioPath: card.audioPath, text: card.reference, speaker: 'cards' }] : [turn];
  });
  const [male, female] = await Promise.all([
    synthesizeSentences(work, SYNTH_SENTENCES, 'en-us'),
    synthesizeSentences(work, SYNTH_SENTENCES, 'en-us+f3'),
  ]);
  const dialogue = SYNTH_SENTENCES.map((text, i) =>
    i % 2 === 0
      ? { audioPath: male[i]!.audioPath, text, speaker: 'male' }
      : { audioPath: female[i]!.audioPath, text, speaker: 'female' },
  );
  for (const [name, turns] of [
    ['one reader (testdata librivox)', reader],
    ['reader and cards speaker alternating (testdata)', twoReaders],
    ['espeak-ng male / female alternating', dialogue],
  ] as const) {
    const [expected, found, purity] = await diarizeTurns(work, name.replace(/\W+/g, '-'), turns);
    rows.push([
      `Diarization, ${name}`,
      `${expected} true speaker(s)`,
      `${found} found, ${pct(purity)} of words on the right speaker`,
    ]);
  }
}

const work = await mkdtemp(join(tmpdir(), 'reelsmith-speech-bench-'));
try {
  const recordings = await testdataRecordings(work);
  if (sections.has('real')) await evaluateReal(recordings);
  if (sections.has('synth')) {
    await evaluateSynth(work, 'en-us');
    await evaluateSynth(work, 'en-gb');
  }
  if (sections.has('long')) await evaluateLong(work, recordings);
  if (sections.has('diarize')) await evaluateDiarization(work, recordings);
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(`Decoder tuning: \`${JSON.stringify(tuning)}\`\n`);
console.log('| Measure | Material | Result |');
console.log('| --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
