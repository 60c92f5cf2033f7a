// Command lines for pocketsphinx_continuous and the parser for its `-time yes` output.
import type { PocketsphinxModel } from './model.ts';

/** Decoder settings; each maps to the pocketsphinx option of the same name. */
export interface DecoderTuning {
  lw?: number;
  beam?: number;
  wbeam?: number;
  pbeam?: number;
  lpbeam?: number;
  maxhmmpf?: number;
  wip?: number;
  pip?: number;
  silprob?: number;
  fillprob?: number;
  fwdflat?: boolean;
  bestpath?: boolean;
  fwdflatlw?: number;
  bestpathlw?: number;
  removeSilence?: boolean;
  vadThreshold?: number;
  vadPrespeech?: number;
  vadPostspeech?: number;
  vadStartspeech?: number;
  topn?: number;
}

const OPTION_NAMES: Readonly<Record<keyof DecoderTuning, string>> = {
  lw: '-lw',
  beam: '-beam',
  wbeam: '-wbeam',
  pbeam: '-pbeam',
  lpbeam: '-lpbeam',
  maxhmmpf: '-maxhmmpf',
  wip: '-wip',
  pip: '-pip',
  silprob: '-silprob',
  fillprob: '-fillprob',
  fwdflat: '-fwdflat',
  bestpath: '-bestpath',
  fwdflatlw: '-fwdflatlw',
  bestpathlw: '-bestpathlw',
  removeSilence: '-remove_silence',
  vadThreshold: '-vad_threshold',
  vadPrespeech: '-vad_prespeech',
  vadPostspeech: '-vad_postspeech',
  vadStartspeech: '-vad_startspeech',
  topn: '-topn',
};

export function tuningArgs(tuning: DecoderTuning): string[] {
  const args: string[] = [];
  for (const key of Object.keys(OPTION_NAMES) as (keyof DecoderTuning)[]) {
    const value = tuning[key];
    if (value === undefined) continue;
    args.push(OPTION_NAMES[key], typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value));
  }
  return args;
}

/** Open-vocabulary transcription of raw 16 kHz PCM with the trigram language model. */
export function transcribeArgs(model: PocketsphinxModel, pcmPath: string, tuning: DecoderTuning): string[] {
  return [
    '-hmm',
    model.hmmDir,
    '-lm',
    model.lmPath,
    '-dict',
    model.dictPath,
    '-infile',
    pcmPath,
    '-time',
    'yes',
    '-logfn',
    '/dev/null',
    ...tuningArgs(tuning),
  ];
}

/** Forced alignment of raw 16 kHz PCM against a finite-state grammar whose words are in `dictPath`. */
export function alignArgs(
  model: PocketsphinxModel,
  pcmPath: string,
  fsgPath: string,
  dictPath: string,
  tuning: DecoderTuning,
): string[] {
  return [
    '-hmm',
    model.hmmDir,
    '-fsg',
    fsgPath,
    '-dict',
    dictPath,
    '-infile',
    pcmPath,
    '-time',
    'yes',
    '-logfn',
    '/dev/null',
    ...tuningArgs(tuning),
  ];
}

export interface TimedToken {
  /** Dictionary word without its alternate-pronunciation suffix ("was(2)" → "was"). */
  word: string;
  start: number;
  end: number;
  /** Posterior probability 0–1 as computed by the decoder. */
  posterior: number;
}

const TIMED_LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+(?:\.\d+)?)$/;
/** `-time yes` prints the first frame of a word's last 10 ms frame as its end; the word lasts through that frame. */
const FRAME_SEC = 0.01;

/** Word lines of `-time yes` output, fillers (<s>, <sil>, [NOISE], …) removed, times in seconds from file start. */
export function parseTimedWords(stdout: string): TimedToken[] {
  const tokens: TimedToken[] = [];
  for (const line of stdout.split('\n')) {
    const match = TIMED_LINE.exec(line.trim());
    if (!match) continue;
    const [, name = '', start = '0', end = '0', posterior = '0'] = match;
    if (/^[<[+]/.test(name)) continue;
    tokens.push({
      word: name.replace(/\(\d+\)$/, ''),
      start: Number(start),
      end: Math.round((Number(end) + FRAME_SEC) * 1000) / 1000,
      posterior: Math.min(1, Math.max(0, Number(posterior))),
    });
  }
  return tokens;
}
