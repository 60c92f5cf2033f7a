// Builders for the files pocketsphinx_batch reads (dictionary, grammars, control files) and a parser for its
// CTM output. Each script word gets its own dictionary entry ("w<index>"), so the output names exact positions.

export const FRAMES_PER_SEC = 100;

export interface AlignmentUtterance {
  id: string;
  startFrame: number;
  endFrame: number;
  /** Dictionary keys of the words spoken in this utterance, in order. */
  keys: string[];
}

export function wordKey(index: number): string {
  return `w${index}`;
}

/** One line per pronunciation: "w3 T AH D EY", "w3(2) T UW D EY". */
export function buildDictionary(entries: { key: string; pronunciations: string[] }[]): string {
  return entries
    .flatMap(({ key, pronunciations }) =>
      pronunciations.map((p, i) => `${i === 0 ? key : `${key}(${i + 1})`} ${p}`),
    )
    .join('\n')
    .concat('\n');
}

// Probability of skipping a word the recogniser cannot find: low, so only a real mismatch skips.
const SKIP_PROBABILITY = 0.001;

/**
 * A finite-state grammar that is exactly the word sequence, where any word may be skipped at a small cost.
 * Pocketsphinx only reports a result whose last transition consumed audio, so the grammar ends in a
 * silence word; the audio handed to it always ends in silence.
 */
export function buildFsg(name: string, keys: readonly string[]): string {
  const n = keys.length;
  const lines = [`FSG_BEGIN ${name}`, `NUM_STATES ${n + 2}`, 'START_STATE 0', `FINAL_STATE ${n + 1}`];
  keys.forEach((key, i) => {
    lines.push(`TRANSITION ${i} ${i + 1} ${1 - SKIP_PROBABILITY} ${key}`);
    lines.push(`TRANSITION ${i} ${i + 1} ${SKIP_PROBABILITY}`);
  });
  lines.push(`TRANSITION ${n} ${n + 1} 1.0 <sil>`, 'FSG_END');
  return lines.join('\n').concat('\n');
}

/** Control file: "<audio file without extension> <first frame> <last frame> <utterance id>". */
export function buildCtl(audioBase: string, utterances: readonly AlignmentUtterance[]): string {
  return utterances
    .map((u) => `${audioBase} ${u.startFrame} ${u.endFrame} ${u.id}`)
    .join('\n')
    .concat('\n');
}

export function pocketsphinxBatchArgs(p: {
  modelDir: string;
  dir: string;
  ctlPath: string;
  fsgCtlPath: string;
  dictPath: string;
  ctmPath: string;
}): string[] {
  return [
    ['-hmm', `${p.modelDir}/en-us`],
    ['-dict', p.dictPath],
    ['-adcin', 'yes'],
    ['-cepdir', p.dir],
    ['-cepext', '.raw'],
    ['-ctl', p.ctlPath],
    ['-fsgctl', p.fsgCtlPath],
    ['-fsgdir', p.dir],
    ['-fsgext', '.fsg'],
    ['-ctm', p.ctmPath],
    // Silence removal would drop frames and shift every time after it.
    ['-remove_silence', 'no'],
    // Synthetic audio has runs of exact zeros, which break the log-spectrum features without a little noise.
    ['-dither', 'yes'],
    ['-seed', '1'],
  ].flat();
}

export interface CtmWord {
  utterance: string;
  key: string;
  start: number;
  end: number;
}

/** "<utt> <channel> <start> <duration> <word> [<confidence>]", times in seconds from the utterance start. */
export function parseCtm(text: string): CtmWord[] {
  const words: CtmWord[] = [];
  for (const line of text.split('\n')) {
    const [utterance, , start, duration, word] = line.trim().split(/\s+/);
    if (!utterance || !word || start === undefined || duration === undefined) continue;
    const key = word.replace(/\(\d+\)$/, '');
    if (key.startsWith('<') || key.startsWith('[') || key.startsWith('+')) continue;
    words.push({ utterance, key, start: Number(start), end: Number(start) + Number(duration) });
  }
  return words;
}
