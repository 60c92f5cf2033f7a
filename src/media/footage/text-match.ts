// Word-level text matching for footage: tokenizing, a light English stemmer, stop words, and
// whole-word phrase exclusions.

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each even ever every few for from further get ' +
    'gets got had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just let like lot lots make makes many may me more most much must my myself need needs never no nor not ' +
    'now of off on once one only or other our ours ourselves out over own really same say says see she should ' +
    'so some still such than that the their theirs them themselves then there these they thing things this ' +
    'those through to too under until up us very want wants was way we well were what when where which while ' +
    'who whom why will with without would yet you your yours yourself yourselves dont doesnt didnt cant wont ' +
    'isnt arent im youre theyre thats its ive youve weve'
  ).split(' '),
);

/** Lower-case words of a text; anything that is not a letter or digit separates words. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

const VOWEL = /[aeiouy]/;

function undouble(word: string): string {
  return /([^aeiouylsz])\1$/.test(word) ? word.slice(0, -1) : word;
}

/**
 * A light suffix stripper so that inflected forms meet: cars/car, driving/drive, parties/party,
 * boxes/box, stopped/stop. Both sides of every comparison go through it, so its stems only need to be
 * consistent, not dictionary words.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && /[^sui]s$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing') && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && /[^e]ed$/.test(w) && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Stems of every word in the text, in order. */
export function wordStems(text: string): string[] {
  return tokenize(text).map(stem);
}

/** A word that carries content, with the stem it is compared by. */
export interface ContentTerm {
  word: string;
  stem: string;
}

/** The words that carry content, in order: stop words and bare numbers removed. */
export function contentTerms(text: string): ContentTerm[] {
  return tokenize(text)
    .filter((w) => !isStopWord(w) && !/^[0-9]+$/.test(w))
    .map((word) => ({ word, stem: stem(word) }))
    .filter((t) => !isStopWord(t.stem));
}

/** Stems of the words that carry content: stop words and bare numbers removed. */
export function contentStems(text: string): string[] {
  return contentTerms(text).map((t) => t.stem);
}

/** The spellings of a word that a plural-insensitive match accepts: itself, its plurals, its singular. */
function numberForms(word: string): string[] {
  const forms = new Set([word, `${word}s`, `${word}es`]);
  if (/[^aeiou]y$/.test(word)) forms.add(`${word.slice(0, -1)}ies`);
  if (word.length > 4 && word.endsWith('ies')) forms.add(`${word.slice(0, -3)}y`);
  if (word.length > 4 && /(s|x|z|ch|sh)es$/.test(word)) forms.add(word.slice(0, -2));
  if (word.length > 3 && /[^s]s$/.test(word)) forms.add(word.slice(0, -1));
  return [...forms];
}

/**
 * Builds a test for one exclusion phrase: it matches a text containing the phrase as whole words, with
 * the last word in singular or plural ('car' matches 'cars' but not 'carpet'; 'sports car' matches
 * 'red sports cars' but not 'sports carpet'). Returns undefined for a phrase with no words.
 */
export function phraseMatcher(phrase: string): ((text: string) => boolean) | undefined {
  const words = tokenize(phrase);
  const last = words.pop();
  if (last === undefined) return undefined;
  const alternatives = numberForms(last).join('|');
  const pattern = new RegExp(`(?:^| )${[...words, `(?:${alternatives})`].join(' ')}(?: |$)`);
  return (text) => pattern.test(tokenize(text).join(' '));
}

/**
 * Compiles exclusion phrases once into a test that returns the first phrase found in any of the given
 * texts, or undefined when none is.
 */
export function exclusionTest(phrases: string[]): (texts: string[]) => string | undefined {
  const matchers = phrases.flatMap((phrase) => {
    const matches = phraseMatcher(phrase);
    return matches ? [{ phrase, matches }] : [];
  });
  return (texts) => matchers.find((m) => texts.some(m.matches))?.phrase;
}
