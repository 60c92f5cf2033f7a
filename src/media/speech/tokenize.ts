// Splits a script into the words an aligner places: whitespace- and dash-separated tokens with the
// punctuation around them removed (inner apostrophes, hyphens, periods and digits stay: "don't", "3.5", "e-mail").

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

export function scriptWords(text: string): string[] {
  return text
    .split(/[\s\u2014\u2013]+|\.{3}|\u2026/u)
    .map((token) => token.replace(EDGE_PUNCTUATION, ''))
    .filter((word) => word.length > 0);
}

/** The spelling used to look a word up in a lower-case pronouncing dictionary. */
export function dictionaryKey(word: string): string {
  return word
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'");
}
