// Exact word timings for English: forced alignment of the known script against the audio with pocketsphinx
// (en-us acoustic model, one finite-state grammar per segment that is exactly that segment's words).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../process/run-process.ts';
import { loadCmuDict } from '../speech/cmudict.ts';
import { DEBIAN_MODEL_ROOT } from '../speech/model.ts';
import type { WordTiming } from '../types.ts';
import { readLevelTrack } from './audio-levels.ts';
import { espeakToCmu } from './espeak-to-cmu.ts';
import { alignmentRawArgs } from './ffmpeg-args.ts';
import { interpolateMissing } from './interpolate-timings.ts';
import { isoLanguageOf } from './language-codes.ts';
import { phonemizeWords } from './phoneme-weights.ts';
import {
  FRAMES_PER_SEC,
  buildCtl,
  buildDictionary,
  buildFsg,
  parseCtm,
  pocketsphinxBatchArgs,
  wordKey,
  type AlignmentUtterance,
} from './pocketsphinx-files.ts';
import { findActivity, type Interval } from './speech-activity.ts';
import type { TimedWords, WordTimer, WordTimingRequest } from './word-timer.ts';

// Silence appended to the audio so the last grammar's closing silence word always has frames to match.
const PAD_SEC = 0.5;
const ENGLISH_VOICE = 'gmw/en-US';

export interface PocketsphinxOptions {
  modelDir?: string;
}

export function pocketsphinxTimer(options: PocketsphinxOptions = {}): WordTimer {
  const modelDir = options.modelDir ?? DEBIAN_MODEL_ROOT;
  return {
    source: 'aligned',
    supports: (language) => isoLanguageOf(language) === 'en',
    time: (request) => align(request, modelDir),
  };
}

async function pronunciationsFor(request: WordTimingRequest, modelDir: string): Promise<string[][]> {
  const words = request.segments.flatMap((s) => s.words);
  const [dict, phonemes] = await Promise.all([
    loadCmuDict(`${modelDir}/cmudict-en-us.dict`),
    // The voice that spoke the audio says words the way its phonemes say; they become one more variant.
    phonemizeWords(
      words.map((w) => w.text),
      request.espeakVoice ?? ENGLISH_VOICE,
      request.signal,
    ),
  ]);
  return words.map((w, i) => {
    const fromEspeak = phonemes ? espeakToCmu(phonemes[i]!) : null;
    const all = [...(dict.get(w.spoken) ?? []), ...(fromEspeak ? [fromEspeak] : [])].map((p) => p.join(' '));
    return [...new Set(all)];
  });
}

async function align(request: WordTimingRequest, modelDir: string): Promise<TimedWords> {
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-align-'));
  try {
    const [track, pronunciations] = await Promise.all([
      readLevelTrack(request.audioPath),
      pronunciationsFor(request, modelDir),
      runProcess('ffmpeg', alignmentRawArgs(request.audioPath, join(dir, 'audio.raw'), PAD_SEC), {
        signal: request.signal,
      }),
    ]);

    let index = 0;
    const utterances: AlignmentUtterance[] = request.segments.map((segment, s) => {
      const keys: string[] = [];
      for (let i = 0; i < segment.words.length; i++, index++) {
        if (pronunciations[index]!.length > 0) keys.push(wordKey(index));
      }
      const isLast = s === request.segments.length - 1;
      return {
        id: `s${s}`,
        startFrame: Math.floor(segment.start * FRAMES_PER_SEC),
        endFrame: Math.ceil((segment.end + (isLast ? PAD_SEC : 0)) * FRAMES_PER_SEC) - 1,
        keys,
      };
    });
    const aligned = utterances.filter((u) => u.keys.length > 0);
    const found = new Map<string, Interval>();
    if (aligned.length > 0) {
      await writeFile(
        join(dir, 'words.dict'),
        buildDictionary(
          pronunciations.flatMap((p, i) => (p.length > 0 ? [{ key: wordKey(i), pronunciations: p }] : [])),
        ),
      );
      await Promise.all(aligned.map((u) => writeFile(join(dir, `${u.id}.fsg`), buildFsg(u.id, u.keys))));
      await writeFile(join(dir, 'utterances.ctl'), buildCtl('audio', aligned));
      await writeFile(join(dir, 'grammars.ctl'), aligned.map((u) => u.id).join('\n') + '\n');
      const args = pocketsphinxBatchArgs({
        modelDir,
        dir,
        ctlPath: join(dir, 'utterances.ctl'),
        fsgCtlPath: join(dir, 'grammars.ctl'),
        dictPath: join(dir, 'words.dict'),
        ctmPath: join(dir, 'out.ctm'),
      });
      await runProcess('pocketsphinx_batch', args, { signal: request.signal });
      const offsets = new Map(aligned.map((u) => [u.id, u.startFrame / FRAMES_PER_SEC]));
      for (const w of parseCtm(await readFile(join(dir, 'out.ctm'), 'utf8'))) {
        const offset = offsets.get(w.utterance) ?? 0;
        found.set(w.key, { start: offset + w.start, end: offset + w.end });
      }
    }

    const words: WordTiming[] = [];
    let interpolated = 0;
    index = 0;
    for (const segment of request.segments) {
      const speech = findActivity(track, segment).speech ?? segment;
      const keys = segment.words.map((_, i) => wordKey(index + i));
      const placed = interpolateMissing(
        keys.map((k) => found.get(k) ?? null),
        segment.words.map((w) => [...w.spoken].length),
        speech,
      );
      // The aligner can stretch a segment's first word back over the silence the voice leads with (festival
      // and flite start every sentence with about 0.2 s of it, and a stop like "b" sounds silent at first), or
      // its last word into the padding; no word of the segment lies outside the speech measured in it.
      const clamp = (t: number) => Math.min(Math.max(t, speech.start), speech.end, track.durationSec);
      placed.timings.forEach((t, i) =>
        words.push({ word: segment.words[i]!.text, start: clamp(t.start), end: clamp(t.end) }),
      );
      interpolated += placed.interpolated;
      index += segment.words.length;
    }
    return { words, source: 'aligned', interpolated };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
