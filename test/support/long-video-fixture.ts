// A narrated "long video" for clip tests and benchmarks: espeak-ng speaks a script of passages (some strong:
// hooks, numbers, questions, emotional claims; some weak filler), over generated footage with one shot per
// passage. In a shot a bright square moves in a known part of the frame (or nothing moves), so reframing can be
// checked. Made once per set of options and cached under .test-cache/long-video/.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { num } from '../../src/media/ffmpeg/filter-escape.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import type { WordTiming } from '../../src/media/types.ts';
import type { SpeechRecognizer, Transcript } from '../../src/media/speech/recognizer.ts';
import { pocketsphinxTimer } from '../../src/media/voice/pocketsphinx-timer.ts';
import { splitScript, spokenForm } from '../../src/media/voice/script-words.ts';
import { synthesize } from '../../src/media/voice/synthesize.ts';
import { resolveVoice } from '../../src/media/voice/voice-catalogue.ts';

export interface ScriptPassage {
  text: string;
  strong: boolean;
}

/** Alternating weak filler and strong passages: the strong ones are what a clip picker must find. */
export const QUALITY_PASSAGES: readonly ScriptPassage[] = [
  {
    strong: false,
    text:
      'Okay, so this first part is basically about the general setup of the things we use. ' +
      'And then we kind of go over the usual stuff that was there before, more or less in the same way. ' +
      'It is sort of like the other section, and it goes on in the normal order that it always has. ' +
      'We will look at each of these in turn as we get to them.',
  },
  {
    strong: true,
    text:
      'Why do most people never get rich? Here is the truth nobody tells you. ' +
      'Ninety percent of new businesses fail within five years, and the biggest mistake is not the idea. ' +
      'It is cash. If you save just ten dollars a day, you will have over three thousand six hundred dollars in one year. ' +
      'That single habit changed my life. Start today, and in one year you will thank yourself.',
  },
  {
    strong: false,
    text:
      'So after that, um, the next thing on the list is the part about the regular schedule. ' +
      'Then there is a bit more of the same material, and we go through it one piece at a time. ' +
      'Basically it is the usual routine, and then it carries on like the earlier part did. ' +
      'There is not a lot to say about it, so we will keep going with the rest of it.',
  },
  {
    strong: true,
    text:
      'Imagine losing everything you love in a single night. That is what happened to my family, and I was terrified. ' +
      'The fire destroyed our home in less than twenty minutes. But here is the incredible part. ' +
      'Our neighbors raised forty thousand dollars in three days. ' +
      'Have you ever seen strangers do something that beautiful? I still cry when I think about it.',
  },
  {
    strong: false,
    text:
      'And then, you know, we move on to the next part of the overview, which is about the general layout. ' +
      'It follows the same pattern as before, and the order stays the way it was set up. ' +
      'So that is more or less how this section goes, and then the next one starts. ' +
      'We covered most of this earlier, and the details are in the notes for later.',
  },
  {
    strong: true,
    text:
      'Stop scrolling for a second, because this will shock you. ' +
      'The average person checks their phone ninety six times a day. That is once every ten minutes. ' +
      'Scientists found that one week without social media made people dramatically happier and less anxious. ' +
      'What would you do with two extra hours every single day? The answer might surprise you.',
  },
  {
    strong: false,
    text:
      'Right, so the last part is kind of a wrap up of the things from the other sections. ' +
      'It goes over the same points again in the usual order, and then it comes to the end. ' +
      'That is basically the whole thing, and after this there is not much more to go through. ' +
      'Thanks for sticking with it through all of the general parts of the overview.',
  },
];

export interface LongVideoOptions {
  /** Spoken in order; repeated from the start until `minDurationSec` is reached. Default QUALITY_PASSAGES. */
  passages?: readonly ScriptPassage[];
  minDurationSec?: number;
  /** Frame size; default 320×180 (landscape). A portrait size moves the subject along the height. */
  width?: number;
  height?: number;
  fps?: number;
  /** Silence between passages, s. */
  passageGapSec?: number;
  /**
   * Where the moving square is in each passage's shot, as a fraction of the long side (x for landscape,
   * y for portrait); null: nothing moves. Cycled over the passages. Default [0.75, 0.25, null].
   */
  subjects?: readonly (number | null)[];
  /** x264 preset and quality of the fixture itself. */
  preset?: string;
  crf?: number;
  /** Where finished fixtures are kept; null builds afresh every time. Default <repo>/.test-cache/long-video. */
  cacheDir?: string | null;
}

export interface PlacedPassage {
  index: number;
  text: string;
  strong: boolean;
  /** First word's start and last word's end, s. */
  startSec: number;
  endSec: number;
  words: WordTiming[];
  subject: number | null;
  /** The passage's shot: from the middle of the silence before it to the middle of the one after. */
  shotStartSec: number;
  shotEndSec: number;
}

export interface LongVideo {
  path: string;
  durationSec: number;
  width: number;
  height: number;
  passages: PlacedPassage[];
  /** Every spoken word, as written in the script (with punctuation), on the video's timeline. */
  words: WordTiming[];
}

const FIXTURE_VERSION = 2;
const LEAD_SEC = 0.6;
const DEFAULT_CACHE = new URL('../../.test-cache/long-video', import.meta.url).pathname;
const SHOT_COLORS = ['0x1B2A3A', '0x2A1B33', '0x1B3326', '0x33291B'];

interface Resolved {
  passages: readonly ScriptPassage[];
  minDurationSec: number;
  width: number;
  height: number;
  fps: number;
  passageGapSec: number;
  subjects: readonly (number | null)[];
  preset: string;
  crf: number;
}

function resolve(opts: LongVideoOptions): Resolved {
  return {
    passages: opts.passages ?? QUALITY_PASSAGES,
    minDurationSec: opts.minDurationSec ?? 0,
    width: opts.width ?? 320,
    height: opts.height ?? 180,
    fps: opts.fps ?? 25,
    passageGapSec: opts.passageGapSec ?? 1.2,
    subjects: opts.subjects ?? [0.75, 0.25, null],
    preset: opts.preset ?? 'ultrafast',
    crf: opts.crf ?? 26,
  };
}

/** `sum(between(t,a,b)*value)` over the shots that have a value. */
function piecewise(shots: readonly PlacedPassage[], value: (p: PlacedPassage) => number | null): string {
  const terms = shots.flatMap((p) => {
    const v = value(p);
    return v === null ? [] : [`between(t,${num(p.shotStartSec, 3)},${num(p.shotEndSec, 3)})*${num(v, 4)}`];
  });
  return terms.length > 0 ? terms.join('+') : '0';
}

/** The footage graph: a coloured background per shot, static blocks, and the moving square. */
export function footageGraph(r: Resolved, passages: readonly PlacedPassage[], durationSec: number): string {
  const landscape = r.width >= r.height;
  const short = Math.min(r.width, r.height);
  const box = 2 * Math.round((short * 0.12) / 2);
  const d = num(durationSec, 3);
  const parts = [`color=c=${SHOT_COLORS[0]}:s=${r.width}x${r.height}:r=${r.fps}:d=${d}`];
  passages.forEach((p, i) => {
    const color = SHOT_COLORS[i % SHOT_COLORS.length]!;
    const when = `between(t,${num(p.shotStartSec, 3)},${num(p.shotEndSec, 3)})`;
    parts.push(`drawbox=x=0:y=0:w=iw:h=ih:color=${color}:t=fill:enable='${when}'`);
  });
  // Static blocks give still shots some structure (a still picture still has no motion).
  parts.push(
    `drawbox=x=iw*0.06:y=ih*0.08:w=iw*0.18:h=ih*0.12:color=0x5A6B7C:t=fill`,
    `drawbox=x=iw*0.70:y=ih*0.80:w=iw*0.22:h=ih*0.10:color=0x7C6B5A:t=fill`,
  );
  const centre = piecewise(passages, (p) => p.subject);
  const on = piecewise(passages, (p) => (p.subject === null ? null : 1));
  // The square drifts ±4 % along the long side and ±20 % across it, so it is always moving.
  const along = `(${centre})-0.04*sin(2*PI*t/1.7)`;
  const across = `0.5+0.2*sin(2*PI*t/2.3)`;
  const x = landscape ? `W*(${along})-w/2` : `W*(${across})-w/2`;
  const y = landscape ? `H*(${across})-h/2` : `H*(${along})-h/2`;
  return (
    `${parts.join(',')}[bg];color=c=0xFFD60A:s=${box}x${box}:r=${r.fps}:d=${d}[box];` +
    `[bg][box]overlay=x='${x}':y='${y}':eval=frame:enable='gt(${on},0)',format=yuv420p[v]`
  );
}

function cacheKey(r: Resolved): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: FIXTURE_VERSION, ...r }))
    .digest('hex')
    .slice(0, 16);
}

/** Every passage once, then more from the start again until the video is at least `minDurationSec` long. */
function passageList(r: Resolved, spokenSec: (i: number) => number): ScriptPassage[] {
  const list: ScriptPassage[] = [];
  let total = LEAD_SEC;
  while (list.length < r.passages.length || total < r.minDurationSec) {
    const index = list.length;
    list.push(r.passages[index % r.passages.length]!);
    total += spokenSec(index) + r.passageGapSec;
  }
  return list;
}

async function build(r: Resolved, outDir: string): Promise<Omit<LongVideo, 'path'>> {
  const work = await mkdtemp(join(outDir, 'build-'));
  try {
    const voice = resolveVoice({ language: 'en', gender: 'female' });
    // One synthesis per distinct passage; repeats reuse the recording.
    const spoken = await Promise.all(
      r.passages.map(async (p, i) => {
        const outPath = join(work, `passage-${i}.wav`);
        return synthesize({ text: p.text, voice, outPath });
      }),
    );
    const list = passageList(r, (i) => spoken[i % r.passages.length]!.durationSec);
    const placed: PlacedPassage[] = [];
    let cursor = LEAD_SEC;
    list.forEach((p, index) => {
      const speech = spoken[index % r.passages.length]!;
      const words = speech.words.map((w) => ({ word: w.word, start: w.start + cursor, end: w.end + cursor }));
      placed.push({
        index,
        text: p.text,
        strong: p.strong,
        startSec: words[0]!.start,
        endSec: words[words.length - 1]!.end,
        words,
        subject: r.subjects[index % r.subjects.length] ?? null,
        shotStartSec: index === 0 ? 0 : cursor - r.passageGapSec / 2,
        shotEndSec: cursor + speech.durationSec + r.passageGapSec / 2,
      });
      cursor += speech.durationSec + r.passageGapSec;
    });
    const durationSec = cursor;

    const inputs = r.passages.flatMap((_, i) => ['-i', join(work, `passage-${i}.wav`)]);
    // Each distinct recording is an input once; asplit hands it to every place it is spoken.
    const uses = r.passages.map((_, i) =>
      list.map((__, index) => index).filter((index) => index % r.passages.length === i),
    );
    const splits = r.passages.map((_, i) => {
      const labels = uses[i]!.map((index) => `[s${index}]`).join('');
      return `[${i}:a]asplit=${uses[i]!.length}${labels}`;
    });
    const padded = list.map(
      (_, index) =>
        `[s${index}]aformat=sample_rates=48000:channel_layouts=mono,apad=pad_dur=${num(r.passageGapSec)}[p${index}]`,
    );
    const lead = `aevalsrc=0:s=48000:d=${num(LEAD_SEC)}[lead]`;
    const concat = `[lead]${list.map((_, i) => `[p${i}]`).join('')}concat=n=${list.length + 1}:v=0:a=1[a]`;
    const graph = [footageGraph(r, placed, durationSec), lead, ...splits, ...padded, concat].join(';');
    const partial = join(work, 'video.mp4');
    await runFfmpeg([
      '-y',
      ...inputs,
      '-filter_complex',
      graph,
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      r.preset,
      '-crf',
      String(r.crf),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-t',
      num(durationSec, 3),
      '-movflags',
      '+faststart',
      partial,
    ]);
    await rename(partial, join(outDir, 'video.mp4'));
    return {
      durationSec,
      width: r.width,
      height: r.height,
      passages: placed,
      words: placed.flatMap((p) => p.words),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Makes (or takes from the cache) a narrated long video and places it at `<dir>/long-video.mp4`.
 * Passages carry their strong/weak flag and timings, words are on the video's timeline.
 */
export async function makeLongVideo(dir: string, opts: LongVideoOptions = {}): Promise<LongVideo> {
  const r = resolve(opts);
  const cacheRoot = opts.cacheDir === undefined ? DEFAULT_CACHE : opts.cacheDir;
  await mkdir(dir, { recursive: true });
  const target = join(dir, 'long-video.mp4');
  if (cacheRoot === null) {
    const meta = await build(r, dir);
    await rename(join(dir, 'video.mp4'), target);
    return { ...meta, path: target };
  }
  const entry = join(cacheRoot, cacheKey(r));
  const metaPath = join(entry, 'meta.json');
  if (!existsSync(metaPath)) {
    await mkdir(cacheRoot, { recursive: true });
    // Built beside the entry and renamed into place, so a concurrent or interrupted build never shows half.
    const staging = await mkdtemp(join(cacheRoot, 'staging-'));
    try {
      const meta = await build(r, staging);
      await writeFile(join(staging, 'meta.json'), JSON.stringify(meta));
      await rename(staging, entry).catch(async (error: unknown) => {
        if (!existsSync(metaPath)) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Omit<LongVideo, 'path'>;
  await rm(target, { force: true });
  await link(join(entry, 'video.mp4'), target).catch(() => copyFile(join(entry, 'video.mp4'), target));
  return { ...meta, path: target };
}

/**
 * A recognizer for a fixture whose script is known: it force-aligns that script (pocketsphinx, one segment per
 * passage shot) against whatever audio it is handed, and reports the words as a recognizer would: lower-case
 * and without punctuation unless `punctuation` is set. Local recognition of espeak-ng speech is too poor (84 %
 * WER, BENCHMARKS.md) to test moment picking with; alignment of the true script is exact to ~20 ms.
 */
export function scriptRecognizer(video: LongVideo, opts: { punctuation?: boolean } = {}): SpeechRecognizer {
  return {
    id: 'fixture-script-aligner',
    languages: () => ['en'],
    async transcribe(audioPath, options = {}): Promise<Transcript> {
      const segments = video.passages.map((p) => ({
        start: p.shotStartSec,
        end: p.shotEndSec,
        words: splitScript(p.text, 'en').flatMap((sentence) => sentence.words),
      }));
      const timed = await pocketsphinxTimer().time({
        audioPath,
        language: 'en',
        segments,
        signal: options.signal,
      });
      options.onProgress?.(1);
      const words = timed.words.map((w) => ({ ...w, word: opts.punctuation ? w.word : spokenForm(w.word) }));
      return {
        language: 'en',
        durationSec: video.durationSec,
        words,
        text: words.map((w) => w.word).join(' '),
      };
    },
  };
}

export interface TimedTextOptions {
  /** Time of the first word, s. */
  startSec?: number;
  /** Seconds per word (spoken part) and the silence between words of a sentence. */
  wordSec?: number;
  wordGapSec?: number;
  /** Silence after each sentence; a number for all, or one per sentence. */
  sentenceGapSec?: number | readonly number[];
}

/** Evenly timed words for sentences, as a recognizer with punctuation would report them: for unit tests. */
export function timedWords(sentences: readonly string[], opts: TimedTextOptions = {}): WordTiming[] {
  const wordSec = opts.wordSec ?? 0.3;
  const wordGap = opts.wordGapSec ?? 0.03;
  const words: WordTiming[] = [];
  let t = opts.startSec ?? 0.5;
  sentences.forEach((sentence, i) => {
    for (const word of sentence.split(/\s+/).filter(Boolean)) {
      words.push({ word, start: Math.round(t * 1000) / 1000, end: Math.round((t + wordSec) * 1000) / 1000 });
      t += wordSec + wordGap;
    }
    const gap = opts.sentenceGapSec ?? 0.5;
    t += (typeof gap === 'number' ? gap : (gap[i] ?? 0.5)) - wordGap;
  });
  return words;
}
