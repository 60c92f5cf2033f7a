// The topic pool (20–40 topics): the site's blog titles and headings, then its recurring key phrases
// (noun phrases found with compromise), deduplicated by word stems. When a small site yields fewer than
// 20, the pool is filled with the topic seeds of its industry, then of the next-ranked industries:
// general subjects of the field, never statements about the company.
import nlp from 'compromise';
import { contentStems, stem, tokenize } from '../../media/footage/text-match.ts';
import { industryById, type Industry } from './industries.ts';
import { countWords } from './word-count.ts';
import type { SiteText } from './site-text.ts';
import { MAX_TOPICS, MIN_TOPICS } from './topic-limits.ts';

export { MAX_TOPICS, MIN_TOPICS };

const MAX_TOPIC_CHARS = 100;
const MAX_TOPIC_WORDS = 12;
/** Text handed to the phrase finder; beyond it a big site adds cost, not topics. */
const MAX_NLP_CHARS = 80_000;

/** Headings that label a part of a page rather than name a subject. */
const GENERIC_HEADING =
  /^(home|features?|pricing|plans?|faqs?|frequently asked questions|contact( us)?|about( us)?|(our|the|meet the) (team|story|mission|values|customers|clients|partners)|team|what we believe|related (reading|posts|articles)|testimonials?|reviews?|blog|news|latest (posts|news|articles)|resources|company|products?|services|solutions|careers|jobs|legal|privacy( policy)?|terms( of (service|use))?|cookies?( policy)?|newsletter|subscribe|follow us|get in touch|menu|navigation|search|sitemap|press|support|help|customers|partners|integrations|how it works|why us|why choose us|what we do|who we are|share( this)?|comments?|leave a (comment|reply)|table of contents|in this article|summary|conclusion|overview)$/i;
/** Headings that ask for an action: calls to action, not subjects. */
const CALL_TO_ACTION =
  /^(get( started)?|start|sign ?up|log ?in|join|try|book|contact|subscribe|download|request|talk to|schedule|buy|shop|order|call|see (pricing|plans)|learn more|read more|ready to|let'?s talk)\b/i;
/** Social proof and boilerplate, which are claims about the company rather than subjects. */
const CLAIM =
  /^(trusted by|loved by|join(ed)? (over )?\d|as seen|what (our|people)|hear from|rated|award|© |copyright)/i;
/** Phrases that show up on every site and say nothing about its subject. */
const BOILERPLATE = new Set(
  [
    'real time',
    'free trial',
    'privacy policy',
    'terms of service',
    'cookie policy',
    'all rights',
    'rights reserved',
    'customer support',
    'sign up',
    'learn more',
    'get started',
    'contact us',
    'email address',
    'phone number',
    'credit card',
    'money back',
    'money back guarantee',
    'business day',
    'time zone',
    'web site',
    'home page',
    'blog post',
  ].map((p) => contentStems(p).join(' ')),
);

/** Trimmed of quotes and trailing punctuation; shouted text put in sentence case. */
export function cleanTopic(text: string): string {
  let t = text
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'“”‘’«»•·*#–—-]+|[\s"'“”‘’«»•·*#:;,.!?–—-]+$/g, '')
    .trim();
  if (t.length > 3 && t === t.toUpperCase()) t = t.charAt(0) + t.slice(1).toLowerCase();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * What two topics share when they say the same thing: their content word stems, in any order. Scripts
 * the stemmer does not read (Japanese, Cyrillic …) compare by their lower-cased text.
 */
function key(text: string): string {
  const stems = [...new Set(contentStems(text))].sort().join(' ');
  return stems || text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function isSubject(text: string, brandKey: string): boolean {
  const words = countWords(text);
  if (words < 2 || words > MAX_TOPIC_WORDS || text.length > MAX_TOPIC_CHARS) return false;
  if (GENERIC_HEADING.test(text) || CALL_TO_ACTION.test(text) || CLAIM.test(text)) return false;
  // Questions answered on a pricing or FAQ section are about the product's terms, not subjects.
  if (/\b(cancel|refund|billing|invoice me|payment methods?|discount)\b.*\?$/i.test(text)) return false;
  const k = key(text);
  return k !== '' && k !== brandKey && !BOILERPLATE.has(k);
}

export interface KeyPhrase {
  text: string;
  count: number;
}

/**
 * Noun phrases of two to four words, most frequent first. Names (people, companies, places: what
 * compromise tags as proper nouns) are not subjects and are left out.
 */
export function keyPhrases(text: string, brandName: string): KeyPhrase[] {
  const doc = nlp(text.slice(0, MAX_NLP_CHARS));
  const phrases: string[] = [];
  const collect = (view: ReturnType<typeof doc.match>): void => {
    view.forEach((m) => {
      if (!m.has('#ProperNoun')) phrases.push(m.text());
    });
  };
  collect(doc.nouns().not('(#Determiner|#Possessive|#Pronoun|#Value)'));
  collect(doc.match('#Noun+ #Gerund'));
  const brand = new Set(tokenize(brandName).map(stem));
  const counts = new Map<string, KeyPhrase>();
  for (const raw of phrases) {
    const phrase = cleanTopic(raw);
    const words = tokenize(phrase);
    if (words.length < 2 || words.length > 4) continue;
    if (words.some((w) => brand.has(stem(w)) || /^\d+$/.test(w))) continue;
    const k = key(phrase);
    if (!k || BOILERPLATE.has(k) || k.split(' ').length < 2) continue;
    const seen = counts.get(k);
    if (seen) seen.count += 1;
    else counts.set(k, { text: phrase, count: 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
}

export interface TopicPool {
  topics: string[];
  /** How many came from the site's text or a refiner's reading of it (the rest are industry topic seeds). */
  fromSite: number;
}

/**
 * Builds the pool: `leading` topics (a refiner's) first, then blog titles and headings (at most 15 of each
 * at first, so key phrases get a place), then recurring key phrases, then the rest of the titles and
 * headings, then phrases said once while the pool is short of 20; duplicates by word stems dropped. The seeds of `fillFrom` industries, in order, fill it to 20 when the
 * site gives too little.
 */
export function topicPool(
  text: SiteText,
  brandName: string,
  fillFrom: readonly string[],
  leading: readonly string[] = [],
): TopicPool {
  const brandKey = key(brandName);
  const language = text.language;
  const headings = text.headings.filter((h) => h.role !== 'pricing').map((h) => h.text);
  // Headings are candidates in their own right; phrases are looked for in the running text.
  const body = text.paragraphs.join('\n');
  const blog = text.blogTitles;
  // The phrase finder (compromise) knows English only; other sites give headings and titles alone.
  const phrases = language === 'en' || language.startsWith('en-') ? keyPhrases(body, brandName) : [];

  const chosen: string[] = [];
  const keys = new Set<string>();
  const add = (candidate: string): void => {
    if (chosen.length >= MAX_TOPICS) return;
    const topic = cleanTopic(candidate);
    if (!isSubject(topic, brandKey)) return;
    const k = key(topic);
    if (keys.has(k)) return;
    keys.add(k);
    chosen.push(topic);
  };
  leading.forEach(add);
  blog.slice(0, 15).forEach(add);
  headings.slice(0, 15).forEach(add);
  phrases.filter((p) => p.count > 1).forEach((p) => add(p.text));
  blog.slice(15).forEach(add);
  headings.slice(15).forEach(add);
  // A phrase said once is weak evidence of a subject: it only fills a pool that is still short.
  for (const p of phrases) if (p.count === 1 && chosen.length < MIN_TOPICS) add(p.text);
  const fromSite = chosen.length;

  const industries = fillFrom.map(industryById).filter((i): i is Industry => i !== undefined);
  for (const industry of industries) {
    if (chosen.length >= MIN_TOPICS) break;
    for (const seed of industry.topicSeeds) {
      if (chosen.length >= MIN_TOPICS) break;
      add(seed);
    }
  }
  return { topics: chosen, fromSite };
}
