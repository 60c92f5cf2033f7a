// Splits narration into sentences, the unit scenes are cut on. A line break always ends a sentence.

/** Abbreviations that never end a sentence: they introduce what follows. */
const NEVER_FINAL = new Set([
  'mr.',
  'mrs.',
  'ms.',
  'dr.',
  'prof.',
  'st.',
  'sr.',
  'jr.',
  'vs.',
  'e.g.',
  'i.e.',
  'cf.',
  'approx.',
  'fig.',
  'mt.',
  'no.',
  'vol.',
  'ft.',
  'gen.',
  'sen.',
  'rep.',
  'gov.',
  'capt.',
  'lt.',
  'sgt.',
]);
/** Abbreviations that end a sentence only when a capitalized word follows. */
const MAYBE_FINAL = new Set([
  'etc.',
  'inc.',
  'ltd.',
  'co.',
  'corp.',
  'a.m.',
  'p.m.',
  'u.s.',
  'u.k.',
  'e.u.',
  'jan.',
  'feb.',
  'aug.',
  'sept.',
  'oct.',
  'nov.',
  'dec.',
]);

function endsSentence(line: string, dotStart: number, punct: string, nextWord: string): boolean {
  if (nextWord === '') return true;
  const nextIsUpper = /^[\p{Lu}\p{N}"'\u201c\u2018(]/u.test(nextWord);
  if (punct.startsWith('...') || punct === '\u2026') return nextIsUpper;
  if (punct !== '.') return true;
  const before = line.slice(0, dotStart + 1);
  const raw = (before.match(/\S+$/)?.[0] ?? '').replace(/^["'(\u201c\u2018[]+/, '');
  const token = raw.toLowerCase();
  if (NEVER_FINAL.has(token)) return false;
  // A lone capital with a dot is an initial, as in "J. K. Rowling".
  if (/^\p{Lu}\.$/u.test(raw)) return false;
  if (MAYBE_FINAL.has(token)) return nextIsUpper;
  return true;
}

function splitLine(line: string): string[] {
  const out: string[] = [];
  const boundary = /([.!?\u2026]+)([\s"')\]}\u201d\u2019]*)/g;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = boundary.exec(line)) !== null) {
    const punct = m[1]!;
    const tail = m[2]!;
    const afterPunct = m.index + punct.length;
    const closers = /^\S*/.exec(tail)![0];
    const end = afterPunct + closers.length;
    if (end < line.length && !/\s/.test(line[end]!)) continue;
    const nextWord = line.slice(end).trimStart().split(/\s+/)[0] ?? '';
    if (!endsSentence(line, afterPunct - 1, punct, nextWord)) continue;
    const sentence = line.slice(start, end).trim();
    if (sentence) out.push(sentence);
    start = end;
  }
  const rest = line.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** Sentences of a script in order, with their punctuation; blank lines are dropped. */
export function splitSentences(script: string): string[] {
  return script.split(/\r?\n/).flatMap((line) => splitLine(line.trim()));
}
