// Forced alignment: places the words of a known script on the audio that speaks it, using pocketsphinx with a
// grammar that admits exactly that word sequence (plus silence and noise between words).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { toRecognizerPcm } from './audio-prep.ts';
import { alignmentDictionary, alignmentFsg, alignmentIndex } from './alignment-grammar.ts';
import { loadCmuDict } from './cmudict.ts';
import { fillGaps, type MaybePlaced } from './fill-gaps.ts';
import { DEBIAN_EN_US_MODEL, type PocketsphinxModel } from './model.ts';
import { alignArgs, parseTimedWords, type DecoderTuning, type TimedToken } from './pocketsphinx.ts';
import { pronounceWords } from './pronounce.ts';
import { scriptWords } from './tokenize.ts';

export class AlignmentUnsupportedError extends Error {
  constructor(readonly language: string) {
    super(`forced alignment supports English only, not "${language}"`);
    this.name = 'AlignmentUnsupportedError';
  }
}

export interface AlignOptions {
  /** BCP 47 tag of the script's language; English when omitted. */
  language?: string;
  signal?: AbortSignal;
  model?: PocketsphinxModel;
  /** Skip probability of the fallback grammar used when the audio lacks words of the script. */
  skipProbability?: number;
  tuning?: DecoderTuning;
}

/**
 * Wide beams: the grammar is a single path, so the search stays small, and a narrow beam can prune the only
 * path and lose the whole alignment. VAD is off because the grammar must span the audio as one utterance.
 */
export const ALIGN_TUNING: DecoderTuning = {
  beam: 1e-80,
  pbeam: 1e-80,
  wbeam: 1e-60,
  removeSilence: false,
};

/**
 * Probability of skipping a word in the fallback grammar. A skip is pronounced as silence, and on synthetic
 * speech 1e-3 already let silence win over a spoken word, so it is kept tiny.
 */
export const SKIP_PROBABILITY = 1e-6;

export function isEnglish(language: string | undefined): boolean {
  return language === undefined || /^en(?:$|[-_])/i.test(language);
}

/**
 * Returns one timing per word of `text` (words as split by `scriptWords`: punctuation around them removed),
 * in order. Words the decoder could not place are spread over the gap between their placed neighbours.
 */
export async function alignScript(
  audioPath: string,
  text: string,
  opts: AlignOptions = {},
): Promise<WordTiming[]> {
  if (!isEnglish(opts.language)) throw new AlignmentUnsupportedError(opts.language ?? '');
  const words = scriptWords(text);
  if (words.length === 0) return [];
  const model = opts.model ?? DEBIAN_EN_US_MODEL;
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-align-'));
  try {
    const pcmPath = join(dir, 'audio.raw');
    const [durationSec, dict] = await Promise.all([
      toRecognizerPcm(audioPath, pcmPath, { signal: opts.signal }),
      loadCmuDict(model.dictPath),
    ]);
    const pronunciations = await pronounceWords(words, dict, { signal: opts.signal });
    const dictPath = join(dir, 'align.dict');
    await writeFile(dictPath, alignmentDictionary(pronunciations));
    const decode = async (skipProbability: number): Promise<TimedToken[]> => {
      const fsgPath = join(dir, `align-${skipProbability}.fsg`);
      await writeFile(fsgPath, alignmentFsg(words.length, skipProbability));
      const args = alignArgs(model, pcmPath, fsgPath, dictPath, opts.tuning ?? ALIGN_TUNING);
      const { stdout } = await runProcess('pocketsphinx_continuous', args, { signal: opts.signal });
      return parseTimedWords(stdout).filter((token) => alignmentIndex(token.word) !== undefined);
    };
    // The strict grammar places words best when the audio says exactly the script; only if it finds no path
    // (words missing from the audio) is the grammar that may skip words tried.
    let tokens = await decode(0);
    if (tokens.length === 0) tokens = await decode(opts.skipProbability ?? SKIP_PROBABILITY);
    const placed: MaybePlaced[] = words.map((word) => ({ word }));
    for (const token of tokens) {
      const slot = placed[alignmentIndex(token.word)!];
      if (slot) Object.assign(slot, { start: token.start, end: Math.min(token.end, durationSec) });
    }
    return fillGaps(placed, 0, durationSec);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
