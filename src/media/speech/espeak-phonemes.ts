// Pronunciations for words missing from the CMU dictionary, taken from espeak-ng's phoneme output
// (`-x --sep=_`, Kirshenbaum-style mnemonics) and mapped onto the CMU phones the acoustic model knows.
import { runProcess } from '../process/run-process.ts';

/** espeak-ng English phoneme mnemonic → CMU phones (US English voice). */
const ESPEAK_TO_CMU: Readonly<Record<string, readonly string[]>> = {
  '@': ['AH'],
  '@2': ['AH'],
  '@5': ['AH'],
  '@-': ['AH'],
  '@L': ['AH', 'L'],
  '3': ['ER'],
  '3:': ['ER'],
  a: ['AE'],
  'a#': ['AH'],
  aa: ['AE'],
  'A:': ['AA'],
  'A@': ['AA', 'R'],
  aI: ['AY'],
  'aI@': ['AY', 'ER'],
  aI3: ['AY', 'ER'],
  aU: ['AW'],
  'aU@': ['AW', 'ER'],
  E: ['EH'],
  'e@': ['EH', 'R'],
  eI: ['EY'],
  i: ['IY'],
  'i:': ['IY'],
  'i@': ['IH', 'R'],
  'i@3': ['IH', 'R'],
  I: ['IH'],
  'I#': ['IH'],
  I2: ['IH'],
  '0': ['AA'],
  O: ['AO'],
  'O:': ['AO'],
  O2: ['AO'],
  'O@': ['AO', 'R'],
  'o@': ['AO', 'R'],
  OI: ['OY'],
  oU: ['OW'],
  'oU#': ['OW'],
  'u:': ['UW'],
  U: ['UH'],
  'U@': ['UH', 'R'],
  V: ['AH'],
  b: ['B'],
  d: ['D'],
  D: ['DH'],
  dZ: ['JH'],
  f: ['F'],
  g: ['G'],
  h: ['HH'],
  C: ['HH'],
  j: ['Y'],
  k: ['K'],
  x: ['K'],
  l: ['L'],
  'l-': ['AH', 'L'],
  m: ['M'],
  'm-': ['AH', 'M'],
  n: ['N'],
  'n-': ['AH', 'N'],
  N: ['NG'],
  p: ['P'],
  r: ['R'],
  'r-': ['R'],
  s: ['S'],
  S: ['SH'],
  t: ['T'],
  't#': ['T'],
  t2: ['T'],
  '?': ['T'],
  tS: ['CH'],
  T: ['TH'],
  v: ['V'],
  w: ['W'],
  z: ['Z'],
  Z: ['ZH'],
};

/** Stress and length marks carry no phone of their own. */
const MARKS = /[',%=;]/g;

/**
 * Maps one line of `espeak-ng -x --sep=_` output (phonemes joined by `_`, words by spaces) to CMU phones.
 * Unknown mnemonics are tried without their trailing variant marks (`#`, digits) before being dropped.
 */
export function espeakToCmu(line: string): string[] {
  const phones: string[] = [];
  for (const raw of line.trim().split(/[_\s]+/)) {
    const symbol = raw.replace(MARKS, '');
    if (!symbol) continue;
    const mapped = ESPEAK_TO_CMU[symbol] ?? ESPEAK_TO_CMU[symbol.replace(/[#\d]+$/, '')];
    if (mapped) phones.push(...mapped);
  }
  return phones;
}

/**
 * Asks espeak-ng for the phonemes of each word (one per line, so each line of output is one word) and returns
 * CMU pronunciations in the same order; a word espeak gave nothing usable for maps to an empty list.
 */
export async function espeakPronunciations(
  words: readonly string[],
  opts: { voice?: string; signal?: AbortSignal } = {},
): Promise<string[][]> {
  if (words.length === 0) return [];
  const args = ['-v', opts.voice ?? 'en-us', '-q', '-x', '--sep=_', '-l', '1000', '--stdin'];
  const { stdout } = await runProcess('espeak-ng', args, {
    signal: opts.signal,
    input: words.join('\n') + '\n',
  });
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === words.length) return lines.map(espeakToCmu);
  // A word that espeak splits into several clauses breaks the line-per-word pairing: ask word by word instead.
  return Promise.all(
    words.map(async (word) => {
      const one = await runProcess('espeak-ng', args, { signal: opts.signal, input: word + '\n' });
      return espeakToCmu(one.stdout.split('\n').join(' '));
    }),
  );
}
