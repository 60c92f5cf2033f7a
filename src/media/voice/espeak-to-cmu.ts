// Converts espeak-ng's English phoneme mnemonics (`espeak-ng -x --sep=_`) into CMU dictionary (ARPAbet) phones,
// so words missing from the CMU dictionary can still be aligned.

// prettier-ignore
const CMU: Record<string, string[]> = {
  p: ['P'], b: ['B'], t: ['T'], d: ['D'], k: ['K'], g: ['G'], f: ['F'], v: ['V'],
  T: ['TH'], D: ['DH'], s: ['S'], z: ['Z'], S: ['SH'], Z: ['ZH'], h: ['HH'],
  m: ['M'], n: ['N'], N: ['NG'], l: ['L'], r: ['R'], w: ['W'], j: ['Y'],
  tS: ['CH'], dZ: ['JH'], x: ['K'], '?': ['T'], 't#': ['T'], t2: ['T'], 'd#': ['D'],
  'n-': ['AH', 'N'], 'l-': ['AH', 'L'], 'm-': ['AH', 'M'], 'r-': ['R'],
  '@': ['AH'], '@2': ['AH'], '@5': ['AH'], '@-': ['AH'], '@L': ['AH', 'L'],
  '3': ['ER'], '3:': ['ER'], a: ['AE'], aa: ['AE'], 'a#': ['AH'], a2: ['AH'],
  'A:': ['AA'], 'A@': ['AA', 'R'], A: ['AA'], E: ['EH'], e: ['EH'], 'e@': ['EH', 'R'],
  I: ['IH'], I2: ['IH'], 'I#': ['IH'], i: ['IY'], 'i:': ['IY'], 'i@': ['IY', 'AH'], 'i@3': ['IH', 'R'],
  '0': ['AA'], O: ['AO'], 'O:': ['AO'], O2: ['AO'], 'O@': ['AO', 'R'], 'o@': ['AO', 'R'], o: ['OW'], oU: ['OW'],
  U: ['UH'], 'U@': ['UH', 'R'], u: ['UW'], 'u:': ['UW'], V: ['AH'],
  aI: ['AY'], 'aI@': ['AY', 'ER'], aI3: ['AY', 'ER'], aU: ['AW'], 'aU@': ['AW', 'ER'], eI: ['EY'], OI: ['OY'],
};

// Stress and length marks, and espeak's word/pause markers, which are not phones.
const MARKS = /^[',%=]+/;
const IGNORED = /^[;:|_]*$/;

/** ARPAbet phones for one word's espeak phonemes ("h_@_l_'oU" → HH AH L OW); null when a phoneme has no mapping. */
export function espeakToCmu(phonemes: string): string[] | null {
  const phones: string[] = [];
  for (const raw of phonemes.split(/[_\s]+/)) {
    const token = raw.replace(MARKS, '');
    if (IGNORED.test(token)) continue;
    const mapped = CMU[token];
    if (!mapped) return null;
    for (const phone of mapped) {
      // espeak writes r-coloured vowels followed by a linking r ("3_r-"); ARPAbet has a single ER / R there.
      if (phone !== phones[phones.length - 1] && !(phone === 'R' && phones[phones.length - 1] === 'ER')) {
        phones.push(phone);
      }
    }
  }
  return phones.length > 0 ? phones : null;
}
