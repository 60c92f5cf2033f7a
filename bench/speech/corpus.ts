// Evaluation material: real English recordings shipped by Debian's pocketsphinx-testdata with their reference
// transcriptions, and English sentences synthesized one by one with espeak-ng so sentence boundaries are known.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../../src/media/process/run-process.ts';

export const TESTDATA_DIR = '/usr/share/pocketsphinx/test/data';

export interface Recording {
  id: string;
  group: string;
  audioPath: string;
  reference: string;
}

/** Parses sphinx transcription lines: `<s> words </s> (utterance-id)`. */
export function parseTranscription(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^(.*)\(([^)]+)\)\s*$/.exec(line.trim());
    if (!match) continue;
    const words = (match[1] ?? '')
      .replace(/<\/?s>/g, ' ')
      .trim()
      .replace(/\s+/g, ' ');
    out.set(match[2] ?? '', words);
  }
  return out;
}

/** The recordings with a reference text; the headerless goforward.raw is wrapped into a WAV in `workDir`. */
export async function testdataRecordings(workDir: string): Promise<Recording[]> {
  const goforward = join(workDir, 'goforward.wav');
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
    join(TESTDATA_DIR, 'goforward.raw'),
    goforward,
  ]);
  const recordings: Recording[] = [
    // The reference of the classic pocketsphinx demo utterance ("go forward ten meters").
    { id: 'goforward', group: 'goforward', audioPath: goforward, reference: 'go forward ten meters' },
  ];
  const cards = parseTranscription(await readFile(join(TESTDATA_DIR, 'cards/cards.transcription'), 'utf8'));
  for (const [id, reference] of cards) {
    recordings.push({
      id: `cards-${id}`,
      group: 'cards',
      audioPath: join(TESTDATA_DIR, `cards/${id}.wav`),
      reference,
    });
  }
  const books = parseTranscription(await readFile(join(TESTDATA_DIR, 'librivox/transcription'), 'utf8'));
  for (const [id, reference] of books) {
    recordings.push({
      id,
      group: 'librivox',
      audioPath: join(TESTDATA_DIR, `librivox/${id}.wav`),
      reference,
    });
  }
  return recordings;
}

export const SYNTH_SENTENCES: readonly string[] = [
  'The museum opens at nine and closes late on Fridays.',
  'Please send the final report to everyone before lunch.',
  'Heavy rain is expected across the northern valleys tonight.',
  'She bought fresh bread, cheese and apples at the market.',
  'Our team finished the project two weeks ahead of schedule.',
  'The train to the coast leaves from the second platform.',
  'Water boils faster when you cover the pot with a lid.',
  'He forgot his keys and had to wait outside for an hour.',
  'Small changes to your daily habits can make a big difference.',
  'The children watched the birds build a nest in the old oak tree.',
];

export interface SynthSentence {
  text: string;
  audioPath: string;
}

/** Synthesizes each sentence to its own 16 kHz mono WAV with espeak-ng. */
export async function synthesizeSentences(
  workDir: string,
  sentences: readonly string[],
  voice: string,
): Promise<SynthSentence[]> {
  return Promise.all(
    sentences.map(async (text, i) => {
      const raw = join(workDir, `synth-${voice}-${i}-22k.wav`);
      const audioPath = join(workDir, `synth-${voice}-${i}.wav`);
      await runProcess('espeak-ng', ['-v', voice, '-w', raw, text]);
      await runProcess('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', audioPath]);
      return { text, audioPath };
    }),
  );
}

/** Where speech really starts and ends inside one synthesized sentence, from its samples. */
export interface SpeechSpan {
  onset: number;
  offset: number;
}

/** Decodes audio to 16 kHz mono s16 PCM samples. */
export async function readSamples(audioPath: string, workDir: string): Promise<Int16Array> {
  const out = join(workDir, 'samples.raw');
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    audioPath,
    '-ac',
    '1',
    '-ar',
    '16000',
    '-f',
    's16le',
    out,
  ]);
  const bytes = await readFile(out);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}

/** First and last 5 ms window whose peak is above `threshold` (default about −36 dBFS). */
export function speechSpan(samples: Int16Array, sampleRate = 16000, threshold = 500): SpeechSpan {
  const window = Math.round(sampleRate * 0.005);
  let first = -1;
  let last = -1;
  for (let w = 0; w * window < samples.length; w++) {
    let peak = 0;
    for (let i = w * window; i < Math.min(samples.length, (w + 1) * window); i++)
      peak = Math.max(peak, Math.abs(samples[i]!));
    if (peak > threshold) {
      if (first < 0) first = w;
      last = w;
    }
  }
  return { onset: (first * window) / sampleRate, offset: ((last + 1) * window) / sampleRate };
}

/** Concatenates WAVs (all 16 kHz mono) with `gapSec` of silence between them into `outPath`. */
export async function concatWithGaps(
  paths: readonly string[],
  gapSec: number,
  outPath: string,
): Promise<void> {
  const inputs: string[] = [];
  const labels: string[] = [];
  paths.forEach((path, i) => {
    inputs.push('-i', path);
    labels.push(`[${i}:a]`);
    if (i < paths.length - 1 && gapSec > 0) labels.push(`[g${i}]`);
  });
  const gaps = paths
    .slice(0, -1)
    .map((_, i) => `anullsrc=r=16000:cl=mono,atrim=duration=${gapSec}[g${i}]`)
    .filter(() => gapSec > 0);
  const graph = [
    ...gaps,
    `${labels.join('')}concat=n=${labels.length}:v=0:a=1,aformat=sample_rates=16000:channel_layouts=mono[out]`,
  ].join(';');
  await runProcess('ffmpeg', [
    '-v',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    graph,
    '-map',
    '[out]',
    '-c:a',
    'pcm_s16le',
    outPath,
  ]);
}
