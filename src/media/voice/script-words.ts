// Splits a narration script into sentences and words, keeping each word as written (with its punctuation).

export type BreakKind = 'sentence' | 'clause';

export interface ScriptWord {
  /** The word as written, with punctuation attached, e.g. "fox," or "“Hello". */
  text: string;
  /** What is spoken: lower-case, without surrounding punctuation, e.g. "fox", "hello", "don't". */
  spoken: string;
  /** Punctuation after the word where speech usually pauses. */
  breakAfter?: BreakKind;
}

export interface ScriptSentence {
  text: string;
  words: ScriptWord[];
}

const WORDLIKE = /[\p{L}\p{N}]/u;
// Scripts written without spaces between words.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const CLAUSE_END = /(?:[,;:—–…，、；：)\]]|\.\.)["'”’»)\]]*$/u;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

export function spokenForm(token: string): string {
  return token.normalize('NFC').replaceAll('’', "'").replace(EDGE_PUNCTUATION, '').toLowerCase();
}

function tokens(sentence: string, language: string): string[] {
  const out: string[] = [];
  for (const chunk of sentence.split(/\s+/u).filter(Boolean)) {
    if (!UNSPACED.test(chunk)) {
      out.push(chunk);
      continue;
    }
    const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    for (const s of segmenter.segment(chunk)) out.push(s.segment);
  }
  return out;
}

/** Joins punctuation-only tokens onto the word before them (or after them, at the start). */
function words(sentence: string, language: string): ScriptWord[] {
  const out: ScriptWord[] = [];
  let pending = '';
  for (const token of tokens(sentence, language)) {
    const last = out[out.length - 1];
    if (!WORDLIKE.test(token)) {
      if (last) last.text += (UNSPACED.test(last.text) ? '' : ' ') + token;
      else pending += token;
      continue;
    }
    out.push({ text: pending + token, spoken: spokenForm(token) });
    pending = '';
  }
  for (const w of out) if (CLAUSE_END.test(w.text)) w.breakAfter = 'clause';
  const last = out[out.length - 1];
  if (last) last.breakAfter = 'sentence';
  return out;
}

export function splitScript(text: string, language: string): ScriptSentence[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  const sentences: ScriptSentence[] = [];
  let carry = '';
  for (const s of segmenter.segment(text.normalize('NFC'))) {
    const sentenceText = (carry + s.segment).trim();
    const sentenceWords = words(sentenceText, language);
    // A lone word ending in "." is usually an abbreviation ("Dr. Smith"): keep it with what follows.
    if (sentenceWords.length === 1 && sentenceText.endsWith('.') && !UNSPACED.test(sentenceText)) {
      carry = sentenceText + ' ';
      continue;
    }
    carry = '';
    if (sentenceWords.length > 0) sentences.push({ text: sentenceText, words: sentenceWords });
  }
  const rest = carry.trim();
  if (rest) sentences.push({ text: rest, words: words(rest, language) });
  return sentences;
}
