// What clustering compares between items: the content words, names and key phrases of each title, read
// with compromise's tagger (English; other scripts still split into words, untagged). All titles go through
// one document, one line each, which tags 5,000 titles about twice as fast as one document per title; every
// term is credited back to its title by its character offset.
import nlp from 'compromise';
import { isStopWord, stem } from '../../media/footage/text-match.ts';

export interface TextFeatures {
  /** Stems of the content words (function words and stop words left out), e.g. "unveil", "iphon", "17". */
  terms: string[];
  /** The terms the tagger read as (part of) a name here: "tim", "cook", "netflix". */
  nameTerms: string[];
  /** Names of two words or more, as stems: people, places, organisations, other proper nouns ("tim cook"). */
  entities: string[];
  /** Noun phrases of two to four content words, as stems ("interest rate", "thin design"). */
  phrases: string[];
}

interface TaggedTerm {
  text: string;
  normal: string;
  post: string;
  tags?: Set<string>;
  root?: string;
  offset?: { start: number };
}

const NAME_TAGS = ['ProperNoun', 'Person', 'Place', 'Organization'];
/** Tags of words that carry grammar, not subject. */
const FUNCTION_TAGS = [
  'Determiner',
  'Preposition',
  'Conjunction',
  'Pronoun',
  'Copula',
  'Auxiliary',
  'Modal',
  'QuestionWord',
  'Negative',
];
const MAX_PHRASE_WORDS = 4;
/** A title is a line; anything longer is not one, and would only cost tagging time. */
const MAX_TITLE_CHARS = 300;
/** Share of a headline's longer words that start with a capital for it to count as Title Case. */
const TITLE_CASE_SHARE = 0.7;

function isFunctionWord(term: TaggedTerm): boolean {
  return FUNCTION_TAGS.some((tag) => term.tags?.has(tag)) || isStopWord(bareWord(term.normal));
}

/** The word without a possessive ending or stray quotes ("apple's" → "apple"). */
function bareWord(normal: string): string {
  return normal.replace(/['’]s$/, '').replace(/^['"’‘“”]+|['"’‘“”]+$/g, '');
}

/**
 * A headline in Title Case ("Apple Unveils iPhone Air, Its Thinnest Phone Ever") put in sentence case: the
 * tagger reads every capitalised word as a name otherwise. Words spelled in capitals or mixed case
 * ("NASA", "iPhone") keep their spelling; the first word keeps its capital.
 */
export function sentenceCase(text: string): string {
  const words = text.split(' ');
  const long = words.slice(1).filter((w) => /^\p{L}{4,}/u.test(w));
  const capitalised = long.filter((w) => /^\p{Lu}\p{Ll}/u.test(w));
  if (long.length < 2 || capitalised.length < TITLE_CASE_SHARE * long.length) return text;
  return words.map((w, i) => (i > 0 && /^\p{Lu}\p{Ll}*[^\p{L}]*$/u.test(w) ? w.toLowerCase() : w)).join(' ');
}

/** One stem per word, so "falls", "fell" (compromise's root: "fall") and "falling" meet. */
function termStem(term: TaggedTerm): string {
  return stem(bareWord(term.root ?? term.normal));
}

/** A run of terms cut where punctuation follows a term: a name or phrase does not run across it. */
function clauses(run: readonly TaggedTerm[]): TaggedTerm[][] {
  const parts: TaggedTerm[][] = [[]];
  for (const term of run) {
    parts.at(-1)!.push(term);
    if (/[^\s]/.test(term.post)) parts.push([]);
  }
  return parts.filter((p) => p.length > 0);
}

export function textFeatures(texts: readonly string[]): TextFeatures[] {
  const lines = texts.map((t) => sentenceCase(t.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS)));
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const features: TextFeatures[] = lines.map(() => ({
    terms: [],
    nameTerms: [],
    entities: [],
    phrases: [],
  }));
  const doc = nlp(lines.join('\n'));
  doc.compute(['offset', 'root']);

  const ownerOf = (term: TaggedTerm): number => {
    const offset = term.offset?.start ?? 0;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /** The title a run of terms belongs to; undefined for a run that crosses titles. */
  const ownerOfRun = (run: readonly TaggedTerm[]): number | undefined => {
    const first = run[0];
    const last = run.at(-1);
    if (!first || !last) return undefined;
    const owner = ownerOf(first);
    return ownerOf(last) === owner ? owner : undefined;
  };

  for (const sentence of doc.document as TaggedTerm[][]) {
    for (const term of sentence) {
      // Contractions leave implicit terms with no text ("OpenAI's" → "openai" + an implied "is").
      if (term.text === '' || isFunctionWord(term)) continue;
      const s = termStem(term);
      const f = features[ownerOf(term)];
      if (!f || !/[\p{L}\p{N}]/u.test(s)) continue;
      f.terms.push(s);
      if (NAME_TAGS.some((tag) => term.tags?.has(tag))) f.nameTerms.push(s);
    }
  }

  const names = [doc.people(), doc.places(), doc.organizations(), doc.match('(#ProperNoun|#Acronym)+')];
  for (const view of names) {
    for (const run of view.docs as TaggedTerm[][]) {
      const owner = ownerOfRun(run);
      if (owner === undefined) continue;
      for (const part of clauses(run)) {
        const words = part.filter((t) => t.text !== '');
        // A one-word name is among the content words already; tagging it a name in one headline and not
        // in the next would only make the two look different.
        if (words.length > 1 && !words.every((t) => isStopWord(bareWord(t.normal))))
          features[owner]?.entities.push(words.map(termStem).join(' '));
      }
    }
  }

  for (const run of doc.match('(#Adjective|#Noun|#Value)+').docs as TaggedTerm[][]) {
    const owner = ownerOfRun(run);
    if (owner === undefined) continue;
    for (const part of clauses(run)) {
      const words = part.filter((t) => t.text !== '' && !isFunctionWord(t)).map(termStem);
      if (words.length >= 2 && words.length <= MAX_PHRASE_WORDS)
        features[owner]?.phrases.push(words.join(' '));
    }
  }

  for (const f of features) {
    f.terms = [...new Set(f.terms)];
    f.nameTerms = [...new Set(f.nameTerms)];
    f.entities = [...new Set(f.entities)];
    f.phrases = [...new Set(f.phrases)];
  }
  return features;
}
