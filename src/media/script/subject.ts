// What a bare brief is about, in words that read well inside a sentence: "better sleep" for "Three tips for
// better sleep", "why cats purr", "how to start running", "the best budget laptops of 2026". The template
// writer names only this; it never claims to know more about it than the brief says.
import nlp from 'compromise';
import type { BriefAnalysis } from './brief-analysis.ts';
import { isPeopleGroup, isPreposition, isPronoun } from './english.ts';

export interface TopicSubject {
  /** Reads after "about": a noun phrase or an embedded question. */
  phrase: string;
  /** A shorter noun phrase for lines the whole phrase cannot go in (a figure or a word a brand kit refuses). */
  short?: string;
  /** The brief's own statement, said as the brief says it: "Most people get sleep wrong". */
  statement?: string;
  /** What a list brief asks for, in the singular ("tip"), when a viewer can be asked for one. */
  listItem?: string;
}

/** List nouns a viewer can be asked to share one of ("your best tip for better sleep"). */
const SHAREABLE = new Set(['tips', 'tricks', 'hacks', 'ideas', 'habits', 'strategies', 'lessons', 'rules']);
const SUPERLATIVE = /^(?:best|worst|top|cheapest|fastest|easiest|biggest|smallest|most|least)\b/i;
const TRAILING_YEAR = /\s+((?:19|20)\d\d)$/;
const LEADING_DETERMINER = /^(?:the|a|an|my|our|your|their|this|these|those)\s/i;

function singular(noun: string): string {
  if (/ies$/.test(noun)) return `${noun.slice(0, -3)}y`;
  return noun.replace(/s$/, '');
}

/** The brief's words as a noun phrase that reads after "about": "the best budget laptops of 2026". */
function nounPhrase(text: string): string {
  let phrase = text.trim();
  const year = TRAILING_YEAR.exec(phrase);
  if (year && !isPreposition(phrase.slice(0, year.index).split(' ').at(-1)!.toLowerCase()))
    phrase = `${phrase.slice(0, year.index)} of ${year[1]}`;
  if (SUPERLATIVE.test(phrase) && !LEADING_DETERMINER.test(phrase)) phrase = `the ${phrase}`;
  return phrase;
}

/** The first thing a statement is about that is not its speaker or its people: "sleep" in "Most people get sleep wrong". */
function statementSubject(claim: string): string | undefined {
  const terms = nlp(claim).json()[0]?.terms as { text: string; tags: string[] }[] | undefined;
  if (!terms) return undefined;
  const chunks: string[][] = [];
  let run: { text: string; tags: string[] }[] = [];
  const flush = (): void => {
    // A chunk is a noun run with the adjectives that lead it: "remote work", "more sleep".
    while (run.length > 0 && !run.at(-1)!.tags.includes('Noun')) run.pop();
    if (run.length > 0) chunks.push(run.map((t) => t.text));
    run = [];
  };
  for (const term of terms) {
    const noun =
      term.tags.includes('Noun') && !term.tags.includes('Pronoun') && !term.tags.includes('Uncountable');
    const adjective = term.tags.includes('Adjective') && !term.tags.includes('Noun');
    if (noun || (adjective && !run.some((t) => t.tags.includes('Noun')))) run.push(term);
    else flush();
    if (/[,;:]$/.test(term.text)) flush();
  }
  flush();
  const found = chunks
    .map((c) => c.join(' ').replace(/[,;:.!?]+$/, ''))
    .find((c) => !isPeopleGroup(c) && !isPronoun(c.toLowerCase()) && !/^(most|many|some|all)\s/i.test(c));
  return found;
}

/** A noun phrase without the tail a figure or a long clause hangs on: "cutting churn by 40% in 6 months" → "cutting churn". */
function shortened(phrase: string): string | undefined {
  const words = phrase.split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && (isPreposition(w.toLowerCase()) || /\d/.test(w)));
  const head = (cut > 0 ? words.slice(0, cut) : words).join(' ');
  return head !== phrase && /\p{L}{3}/u.test(head) ? head : undefined;
}

/** A product's full name as the brief writes it: "Bean There" where the analysis found "Bean". */
function fullName(name: string, headline: string): string {
  const names = nlp(headline).match('#ProperNoun+').out('array') as string[];
  return names.map((n) => n.replace(/[,.;:!?]+$/, '')).find((n) => n.split(' ').includes(name)) ?? name;
}

export function topicSubject(a: BriefAnalysis): TopicSubject {
  const statement = a.frame === 'statement' || a.frame === 'product' ? a.claim : a.result;
  switch (a.frame) {
    case 'how':
    case 'why':
    case 'what':
    case 'howto': {
      const phrase = a.question ?? a.topic;
      return { phrase, short: a.frame === 'howto' ? a.topic : shortened(a.topic), statement };
    }
    case 'list':
      return {
        phrase: nounPhrase(a.topic),
        short: shortened(a.topic),
        listItem: a.listNoun && SHAREABLE.has(a.listNoun) ? singular(a.listNoun) : undefined,
      };
    case 'product':
      return { phrase: a.productName ? fullName(a.productName, a.headline) : a.topic, statement };
    case 'statement': {
      const subject = a.claim ? statementSubject(a.claim) : undefined;
      return { phrase: subject ?? a.topic, short: shortened(subject ?? a.topic), statement };
    }
    case 'topic':
      return { phrase: nounPhrase(a.topic), short: shortened(a.topic) };
  }
}
