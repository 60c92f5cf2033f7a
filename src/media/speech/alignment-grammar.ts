// The finite-state grammar and pronouncing dictionary for forcing a known word sequence onto audio.
// Each word position gets its own dictionary entry (`w0`, `w1`, …) so repeated words stay distinct and the
// decoder's output maps straight back to positions in the script.

export function alignmentToken(index: number): string {
  return `w${index}`;
}

/** Position of a word in the script from a decoded token, or undefined for anything else. */
export function alignmentIndex(token: string): number | undefined {
  const match = /^w(\d+)$/.exec(token);
  return match ? Number(match[1]) : undefined;
}

/**
 * Grammar token that stands for "a word the audio does not have". It is pronounced as a short silence, not as a
 * null transition: null transitions would be expanded by pocketsphinx into a transitive closure that grows with
 * the square of the word count, and a run of many skipped words would cost so much that the beam prunes it.
 */
export const SKIP_TOKEN = 'skip';

/**
 * A linear Sphinx FSG: state i --w_i--> state i+1. With `skipProbability` > 0 every word may instead be passed
 * over with SKIP_TOKEN, and every state may jump to the end with one SKIP_TOKEN (the rest of the script was not
 * spoken), so a word the speaker dropped does not sink the whole alignment. Silence and noise between words are
 * added by the decoder itself (`-fsgusefiller`).
 */
export function alignmentFsg(wordCount: number, skipProbability: number): string {
  const lines = [
    'FSG_BEGIN align',
    `NUM_STATES ${wordCount + 1}`,
    'START_STATE 0',
    `FINAL_STATE ${wordCount}`,
  ];
  const skips = skipProbability > 0;
  for (let i = 0; i < wordCount; i++) {
    lines.push(`TRANSITION ${i} ${i + 1} ${skips ? 1 - skipProbability : 1} ${alignmentToken(i)}`);
    if (!skips) continue;
    lines.push(`TRANSITION ${i} ${i + 1} ${skipProbability} ${SKIP_TOKEN}`);
    if (i + 1 < wordCount) lines.push(`TRANSITION ${i} ${wordCount} ${skipProbability} ${SKIP_TOKEN}`);
  }
  lines.push('FSG_END', '');
  return lines.join('\n');
}

/** Dictionary lines for the grammar's tokens; a word's alternate pronunciations become `w3(2)`, `w3(3)`, …. */
export function alignmentDictionary(pronunciations: readonly (readonly (readonly string[])[])[]): string {
  const lines: string[] = [];
  pronunciations.forEach((alternatives, i) => {
    alternatives.forEach((phones, k) => {
      const name = k === 0 ? alignmentToken(i) : `${alignmentToken(i)}(${k + 1})`;
      lines.push(`${name} ${phones.join(' ')}`);
    });
  });
  lines.push(`${SKIP_TOKEN} SIL`);
  return lines.join('\n') + '\n';
}
