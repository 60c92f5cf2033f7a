// Word lists and token tests behind the text signals of a moment: hooks, questions, claims, numbers,
// emotion, fillers, and the connectives a clip should not start on. English only: the local recognizer is.

/** Lower-case spoken form of a recognized or scripted word: edge punctuation off, inner apostrophes kept. */
export function normalizeToken(word: string): string {
  return word
    .normalize('NFC')
    .replaceAll('’', "'")
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}%]+$/gu, '');
}

/** Light suffix stripping so "saving", "saves" and "saved" meet ("sav"); no dictionary, English only. */
export function stem(token: string): string {
  let w = token.toLowerCase().replace(/'s$/, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(sses|xes|zes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ly') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Words a clip should not open on: they hang off something said before. Fillers too. */
export const CONNECTIVES = new Set([
  'and',
  'but',
  'so',
  'because',
  'cause',
  'or',
  'nor',
  'then',
  'also',
  'which',
  'that',
  'plus',
  'yet',
  'however',
  'therefore',
  'thus',
  'anyway',
  'besides',
  'otherwise',
  'um',
  'uh',
  'er',
  'erm',
  'hmm',
  'ah',
  'like',
]);

/** Words a thought does not end on: articles, prepositions, conjunctions, possessives. */
export const DANGLING_ENDS = new Set([
  'the',
  'a',
  'an',
  'and',
  'but',
  'or',
  'so',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'with',
  'from',
  'by',
  'because',
  'that',
  'which',
  'is',
  'are',
  'was',
  'were',
  'my',
  'your',
  'our',
  'their',
  'his',
  'her',
  'its',
  'this',
  'these',
  'those',
  'um',
  'uh',
]);

/** First words that make an unpunctuated sentence a question. */
export const QUESTION_STARTERS = new Set([
  'why',
  'how',
  'what',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'is',
  'are',
  'am',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'should',
  'will',
  'have',
  'has',
  "isn't",
  "aren't",
  "don't",
  "doesn't",
  "didn't",
  "won't",
  "wouldn't",
  "shouldn't",
  "can't",
  "couldn't",
  "haven't",
]);

/** Openings that make people keep watching: promises, warnings, direct challenges. */
export const HOOK_PHRASES: readonly string[][] = [
  "here's",
  'here is',
  'imagine',
  'the secret',
  'the truth',
  'nobody',
  'no one',
  'stop',
  'never',
  'what if',
  'did you know',
  'the biggest',
  'the most',
  'the best',
  'the worst',
  'the one thing',
  'the only',
  'this is why',
  'the reason',
  'listen',
  'most people',
  'the problem',
  'warning',
  'mistake',
  'let me tell you',
  'i was wrong',
  "you won't believe",
  'you need to',
  'pay attention',
  'watch this',
  'this will',
].map((p) => p.split(' '));

/** Markers of a claim or a finding: something the viewer can agree or argue with. */
export const CLAIM_PHRASES: readonly string[][] = [
  'the truth',
  'in fact',
  'actually',
  'the reason',
  'the secret',
  'the key',
  'proven',
  'research',
  'study',
  'studies',
  'scientists',
  'found that',
  'shows that',
  'guarantee',
  'always',
  'never',
  'every',
  'everyone',
  'nobody',
  'most people',
  'the biggest',
  'the best',
  'the worst',
  'the only',
  'must',
  'need to',
  'changed my',
  'mistake',
  'myth',
  'wrong',
  'fact',
].map((p) => p.split(' '));

const EMOTION_WORDS = [
  'love',
  'hate',
  'fear',
  'afraid',
  'scared',
  'terrified',
  'terrifying',
  'amazing',
  'amazed',
  'incredible',
  'unbelievable',
  'shocking',
  'shocked',
  'shock',
  'insane',
  'crazy',
  'awful',
  'terrible',
  'horrible',
  'heartbreaking',
  'heartbroken',
  'devastated',
  'devastating',
  'painful',
  'pain',
  'cry',
  'cried',
  'tears',
  'angry',
  'furious',
  'rage',
  'happy',
  'happier',
  'happiest',
  'joy',
  'sad',
  'lonely',
  'beautiful',
  'stunning',
  'brilliant',
  'wonderful',
  'disaster',
  'nightmare',
  'dangerous',
  'deadly',
  'panic',
  'anxious',
  'anxiety',
  'stress',
  'proud',
  'grateful',
  'thrilled',
  'excited',
  'exciting',
  'surprise',
  'surprising',
  'wow',
  'dream',
  'destroyed',
  'hero',
  'miracle',
  'tragic',
  'tragedy',
  'outrageous',
  'ridiculous',
  'epic',
  'powerful',
  'failure',
  'victory',
  'desperate',
  'hopeless',
  'worried',
  'worry',
];
export const EMOTION_STEMS = new Set(EMOTION_WORDS.map(stem));

/** Words that strengthen what follows; they count half an emotion word. */
export const INTENSIFIERS = new Set([
  'really',
  'very',
  'extremely',
  'incredibly',
  'absolutely',
  'completely',
  'totally',
  'literally',
  'seriously',
  'dramatically',
  'massively',
]);

const NUMBER_WORDS = new Set([
  'zero',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
  'hundred',
  'thousand',
  'million',
  'billion',
  'trillion',
  'dozen',
  'percent',
]);

/** Single-word fillers and the first words of two-word fillers ("you know", "kind of", …). */
const FILLERS = new Set(['um', 'uh', 'er', 'erm', 'hmm', 'ah', 'basically']);
const FILLER_PAIRS = new Set(['you know', 'i mean', 'kind of', 'sort of']);

/** "one" only counts as a number next to another number word ("one hundred", "twenty one"). */
function isNumberToken(tokens: readonly string[], i: number): boolean {
  const t = tokens[i] ?? '';
  if (/^[$€£]?\d/.test(t) || t.endsWith('%')) return true;
  if (NUMBER_WORDS.has(t)) return true;
  if (t === 'one') return NUMBER_WORDS.has(tokens[i - 1] ?? '') || NUMBER_WORDS.has(tokens[i + 1] ?? '');
  return false;
}

/** Number mentions: a run like "three thousand six hundred dollars" or "90%" counts once. */
export function countNumbers(tokens: readonly string[]): number {
  let count = 0;
  let inRun = false;
  for (let i = 0; i < tokens.length; i++) {
    if (isNumberToken(tokens, i)) {
      if (!inRun) count++;
      inRun = true;
    } else if (!(inRun && tokens[i] === 'and' && isNumberToken(tokens, i + 1))) {
      inRun = false;
    }
  }
  return count;
}

/** Emotion words (by stem) plus half a point per intensifier. */
export function countEmotion(tokens: readonly string[]): number {
  let score = 0;
  for (const t of tokens) {
    if (EMOTION_STEMS.has(stem(t))) score += 1;
    else if (INTENSIFIERS.has(t)) score += 0.5;
  }
  return score;
}

export function countFillers(tokens: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (FILLERS.has(tokens[i] ?? '')) count++;
    else if (FILLER_PAIRS.has(`${tokens[i]} ${tokens[i + 1]}`)) count++;
  }
  return count;
}

/** Positions where `phrase` starts in `tokens`. */
export function phrasePositions(tokens: readonly string[], phrase: readonly string[]): number[] {
  const at: number[] = [];
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((p, k) => tokens[i + k] === p)) at.push(i);
  }
  return at;
}

/** Occurrences of any of the phrases. */
export function countPhrases(tokens: readonly string[], phrases: readonly (readonly string[])[]): number {
  return phrases.reduce((sum, phrase) => sum + phrasePositions(tokens, phrase).length, 0);
}

/** Earliest position at which any of the phrases starts, or -1. */
export function firstPhrase(tokens: readonly string[], phrases: readonly (readonly string[])[]): number {
  let first = -1;
  for (const phrase of phrases) {
    const at = phrasePositions(tokens, phrase)[0];
    if (at !== undefined && (first < 0 || at < first)) first = at;
  }
  return first;
}

/**
 * A sentence is a question when it was written with "?" or, without punctuation (recognizers give none),
 * when it opens with a question word or an auxiliary verb, or with "what if".
 */
export function isQuestion(rawLastWord: string, tokens: readonly string[], punctuated: boolean): boolean {
  if (/\?["'”’)\]]*$/.test(rawLastWord)) return true;
  if (punctuated) return false;
  const first = tokens[0] ?? '';
  return QUESTION_STARTERS.has(first);
}
