// Reads a hook topic into the phrase every hook is built around, with compromise's part-of-speech tags:
// - "how to bake sourdough bread" → an action ("bake sourdough bread"), used after "to" or "you";
// - "why sleep matters for athletes", "electric cars", "the Fed raising rates" → a subject phrase, used only
//   where a noun phrase or a wh-clause reads well (after "about", "with", "understand"), so no verb agreement
//   with it is ever needed;
// - a direct question ("is coffee bad for you") or a statement ("Tesla cuts prices in China") is also kept
//   whole, for the hooks that repeat it, and its subject becomes the key phrase.
// Only the topic's first sentence, before a colon or dash, is read.
import nlp from 'compromise';
import { isOrdinaryOpener } from '../../media/script/english.ts';
import { splitSentences } from '../../media/script/sentences.ts';

export interface TopicFrame {
  /** The phrase every hook names, as it reads mid-sentence. */
  keyPhrase: string;
  /** How the key phrase is used: as a subject phrase ("about X") or as an action ("how to X"). */
  kind: 'subject' | 'action';
  /** The topic as a direct question, without its question mark ("is coffee bad for you"). */
  question?: string;
  /** The topic as a statement ("Tesla cuts prices in China"). */
  claim?: string;
}

/** A key phrase longer than this is cut at a phrase boundary: a hook must stay short. */
export const MAX_KEY_PHRASE_WORDS = 8;
/** Questions and statements longer than this are not repeated whole in a hook. */
const MAX_REPEATED_WORDS = 14;

interface Word {
  text: string;
  lower: string;
  tags: ReadonlySet<string>;
}

const NAME_TAGS = ['Person', 'Place', 'Organization', 'ProperNoun', 'Acronym', 'Currency'];
const FUNCTION_TAGS = [
  'Determiner',
  'Preposition',
  'QuestionWord',
  'Pronoun',
  'Conjunction',
  'Adverb',
  'Verb',
  'Copula',
];
const DO_SUPPORT = new Set(['do', 'does', 'did']);
const WH_WORDS = new Set(['how', 'why', 'what', 'who', 'whom', 'whose', 'when', 'where', 'which']);
/** Determiners kept in front of a noun phrase; quantities ("much", "many") and "a" are not. */
const KEPT_DETERMINER = /^(the|your|our|my|their|his|her|its)$/;
const NOUN_TAGS = ['Noun', 'Value', 'ProperNoun', 'Acronym', 'Possessive'];
const lexicon = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;

const has = (word: Word | undefined, ...tags: string[]): boolean =>
  word !== undefined && tags.some((t) => word.tags.has(t));
const isNoun = (w: Word | undefined): boolean => has(w, ...NOUN_TAGS) && !has(w, 'Pronoun', 'Verb');
const isAux = (w: Word | undefined): boolean =>
  has(w, 'Copula', 'Auxiliary', 'Modal') || (w !== undefined && /^(do|does|did|has|have|had)$/.test(w.lower));

/** The first sentence, before a colon, dash or bar, without end punctuation or wrapping quotes. */
function headOf(topic: string): string {
  const first = splitSentences(topic.replace(/\s+/g, ' ').trim())[0] ?? topic;
  return first
    .split(/\s*[:|\u2013\u2014]\s+|\s+-\s+/)[0]!
    .replace(/^["'\u201c\u2018(]+|["'\u201d\u2019)]+$/g, '')
    .replace(/[\s.!?;,]+$/, '')
    .trim();
}

interface TermJson {
  text: string;
  pre: string;
  post: string;
  tags: string[];
}

function wordsOf(text: string): Word[] {
  const sentences = nlp(text).json() as { terms: TermJson[] }[];
  return sentences
    .flatMap((s) => s.terms)
    .filter((t) => t.text !== '')
    .map((t) => ({
      text: `${t.pre.trim()}${t.text}${t.post.trim()}`,
      lower: t.text.toLowerCase(),
      tags: new Set(t.tags),
    }));
}

/**
 * Lowers a capital that is only there because the word opens the topic ("Climate" stays a name risk, "The",
 * "Why", "Learning" do not): a word compromise's lexicon knows as a common word, an ordinary opener, or a
 * function word or verb. Unknown capitalized words are kept: lowering a name is worse than keeping a capital.
 */
function sentenceCase(words: Word[]): Word[] {
  const [first, second] = words;
  if (!first || !/^\p{Lu}\p{Ll}*$/u.test(first.text.replace(/[^\p{L}]/gu, ''))) return words;
  if (second && /^\p{Lu}/u.test(second.text)) return words;
  const entry = lexicon[first.lower];
  const known = entry !== undefined && ![entry].flat().some((tag) => NAME_TAGS.includes(tag));
  // Plural common nouns ("Dogs", "Startups") are rarely names.
  const ordinary =
    known ||
    isOrdinaryOpener(first.lower) ||
    WH_WORDS.has(first.lower) ||
    (has(first, ...FUNCTION_TAGS, 'Plural') && !has(first, ...NAME_TAGS));
  if (!ordinary) return words;
  return [{ ...first, text: first.text.replace(/\p{Lu}/u, (c) => c.toLowerCase()) }, ...words.slice(1)];
}

function join(words: Word[]): string {
  return words
    .map((w) => w.text)
    .join(' ')
    .replace(/[\s.,;:!?]+$/, '');
}

/** At most MAX_KEY_PHRASE_WORDS words, cut before a preposition or conjunction where there is one. */
function trimmed(words: Word[]): Word[] {
  if (words.length <= MAX_KEY_PHRASE_WORDS) return words;
  for (let i = MAX_KEY_PHRASE_WORDS; i >= 2; i--) {
    if (has(words[i], 'Preposition', 'Conjunction')) return words.slice(0, i);
  }
  const cut = words.slice(0, MAX_KEY_PHRASE_WORDS);
  while (cut.length > 1 && has(cut.at(-1), 'Determiner', 'Preposition', 'Conjunction', 'Adjective'))
    cut.pop();
  return cut;
}

/**
 * The first noun phrase: determiners, then adjectives, then nouns (an "of" joining two noun runs included).
 * After do-support ("why do cats purr") a run that reaches the end has swallowed the main verb: it is dropped.
 */
function nounPhrase(words: Word[], doSupport: boolean): Word[] | undefined {
  const start = words.findIndex((w) => isNoun(w) || has(w, 'Adjective'));
  if (start < 0) return undefined;
  const run: Word[] = [];
  let nouns = 0;
  let joinedOf = false;
  for (let i = start; i < words.length; i++) {
    const w = words[i]!;
    if (isNoun(w)) {
      run.push(w);
      nouns++;
    } else if (has(w, 'Adjective') && nouns === 0) run.push(w);
    else if (w.lower === 'of' && nouns > 0 && !joinedOf && isNoun(words[i + 1] ?? words[i + 2])) {
      run.push(w);
      joinedOf = true;
      if (has(words[i + 1], 'Determiner')) run.push(words[++i]!);
    } else break;
  }
  if (nouns === 0) return undefined;
  if (doSupport && nouns > 1 && start + run.length === words.length) run.pop();
  const det = start > 0 && KEPT_DETERMINER.test(words[start - 1]!.lower);
  return det ? [words[start - 1]!, ...run] : run;
}

/** Where a statement's finite verb is ("Tesla cuts prices"), or -1 when the topic is a phrase. */
function finiteVerbIndex(words: Word[]): number {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const prev = words[i - 1]!;
    if (!has(w, 'Verb') || has(w, 'Gerund') || prev.lower === 'to') continue;
    if (!isNoun(prev) && !has(prev, 'Pronoun')) continue;
    // "interest rates", "index funds": a last word read as a present-tense verb is a plural noun.
    if (i === words.length - 1 && !has(w, 'PastTense', 'Copula') && /s$/.test(w.lower)) continue;
    return i;
  }
  return -1;
}

function subjectFrame(words: Word[], extra: Partial<TopicFrame> = {}): TopicFrame {
  return { keyPhrase: join(trimmed(words)), kind: 'subject', ...extra };
}

function repeatable(words: Word[]): string | undefined {
  return words.length <= MAX_REPEATED_WORDS ? join(words) : undefined;
}

/** A topic opening with a question word or an auxiliary. */
function questionFrame(words: Word[]): TopicFrame {
  const yesNo = isAux(words[0]);
  const auxAt = yesNo ? 0 : words.findIndex((w, i) => i > 0 && has(w, 'Verb'));
  // The auxiliary comes right after the question word, or after its noun ("which phone should", "how much
  // protein do"); otherwise the question is embedded ("why sleep matters for athletes", "why you should
  // start"), and an embedded question reads as a phrase.
  const wh = words[0]!.lower;
  const between = words.slice(1, Math.max(1, auxAt));
  const direct =
    yesNo ||
    (auxAt > 0 &&
      isAux(words[auxAt]) &&
      auxAt < words.length - 1 &&
      (auxAt === 1 ||
        (!between.some((w) => has(w, 'Pronoun', 'Verb')) &&
          (/^(what|which|whose)$/.test(wh) ||
            (wh === 'how' && /^(much|many|long|often|far|old)$/.test(words[1]!.lower))))));
  if (!direct) return subjectFrame(words);
  const question = repeatable(words);
  const extra = question ? { question } : {};
  const aux = words[auxAt]!;
  const rest = words.slice(auxAt + 1);
  if (!yesNo && has(aux, 'Copula') && /^(what|who)$/.test(words[0]!.lower)) return subjectFrame(rest, extra);
  const asked = nounPhrase(between, false);
  if (asked) return subjectFrame(asked, extra);
  if (has(rest[0], 'Pronoun') && has(rest[1], 'Verb') && !has(rest[1], 'Gerund'))
    return { keyPhrase: join(trimmed(rest.slice(1))), kind: 'action', ...extra };
  const subject = nounPhrase(rest, DO_SUPPORT.has(aux.lower) || has(aux, 'Modal'));
  return subjectFrame(subject ?? rest, extra);
}

/** Reads a topic (already validated as 1-300 characters with a letter or digit). */
export function frameTopic(topic: string): TopicFrame {
  const head = headOf(topic);
  const words = sentenceCase(wordsOf(head || topic.trim()));
  if (words.length === 0) return { keyPhrase: topic.trim(), kind: 'subject' };
  const [first, second] = words;
  if (first!.lower === 'how' && second?.lower === 'to' && words.length > 2)
    return { keyPhrase: join(trimmed(words.slice(2))), kind: 'action' };
  if (WH_WORDS.has(first!.lower) || (isAux(first) && words.length > 1)) return questionFrame(words);
  // "bake sourdough bread", "start investing in index funds"; "index funds" (a verb-looking word and one plural
  // noun) stays a subject.
  if (
    has(first, 'Imperative', 'Infinitive') &&
    !has(first, 'Gerund', 'Noun') &&
    (words.length > 2 || !has(second, 'Plural'))
  )
    return { keyPhrase: join(trimmed(words)), kind: 'action' };
  const verbAt = finiteVerbIndex(words);
  if (verbAt > 0) {
    const claim = repeatable(words);
    const subject = nounPhrase(words.slice(0, verbAt), false);
    const usable = subject && !subject.every((w) => has(w, 'Pronoun'));
    return subjectFrame(usable ? subject : words.slice(verbAt + 1), claim ? { claim } : {});
  }
  return subjectFrame(words);
}
