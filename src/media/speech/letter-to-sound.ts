// Last-resort spelling → CMU phones for a word neither the dictionary nor espeak-ng could pronounce.
// Greedy longest-match over common English graphemes: rough, but it gives the aligner a plausible phone
// sequence of about the right length, which is what placing the word's boundaries needs.

const GRAPHEMES: readonly (readonly [string, readonly string[]])[] = [
  ['tion', ['SH', 'AH', 'N']],
  ['sion', ['ZH', 'AH', 'N']],
  ['ough', ['AO']],
  ['igh', ['AY']],
  ['tch', ['CH']],
  ['dge', ['JH']],
  ['sch', ['S', 'K']],
  ['ch', ['CH']],
  ['sh', ['SH']],
  ['th', ['TH']],
  ['ph', ['F']],
  ['wh', ['W']],
  ['ck', ['K']],
  ['ng', ['NG']],
  ['qu', ['K', 'W']],
  ['gh', ['G']],
  ['kn', ['N']],
  ['wr', ['R']],
  ['ee', ['IY']],
  ['ea', ['IY']],
  ['ie', ['IY']],
  ['oo', ['UW']],
  ['ou', ['AW']],
  ['ow', ['OW']],
  ['oi', ['OY']],
  ['oy', ['OY']],
  ['ai', ['EY']],
  ['ay', ['EY']],
  ['au', ['AO']],
  ['aw', ['AO']],
  ['ew', ['UW']],
  ['ey', ['IY']],
  ['er', ['ER']],
  ['ir', ['ER']],
  ['ur', ['ER']],
  ['ar', ['AA', 'R']],
  ['or', ['AO', 'R']],
  ['a', ['AE']],
  ['b', ['B']],
  ['c', ['K']],
  ['d', ['D']],
  ['e', ['EH']],
  ['f', ['F']],
  ['g', ['G']],
  ['h', ['HH']],
  ['i', ['IH']],
  ['j', ['JH']],
  ['k', ['K']],
  ['l', ['L']],
  ['m', ['M']],
  ['n', ['N']],
  ['o', ['AA']],
  ['p', ['P']],
  ['q', ['K']],
  ['r', ['R']],
  ['s', ['S']],
  ['t', ['T']],
  ['u', ['AH']],
  ['v', ['V']],
  ['w', ['W']],
  ['x', ['K', 'S']],
  ['y', ['IY']],
  ['z', ['Z']],
];

/** Spells out a word as CMU phones; characters outside a–z are ignored, and a silent final "e" is dropped. */
export function letterToSound(word: string): string[] {
  let rest = word.toLowerCase().replace(/[^a-z]/g, '');
  if (rest.length > 2 && rest.endsWith('e') && !/[aeiouy]e$/.test(rest)) rest = rest.slice(0, -1);
  const phones: string[] = [];
  while (rest.length > 0) {
    const match = GRAPHEMES.find(([grapheme]) => rest.startsWith(grapheme));
    const [grapheme, sound] = match ?? [rest[0] ?? '', []];
    phones.push(...sound);
    rest = rest.slice(Math.max(grapheme.length, 1));
  }
  // Collapse doubled consonants ("ll", "ss") into one phone.
  return phones.filter((phone, i) => phone !== phones[i - 1]);
}
