// The keywords an article is written around: one primary keyword (the phrase the quality gates look for in the
// title, the first paragraph, an H2 and the meta description), a few secondary ones for the keywords meta and
// JSON-LD, and the URL slug. All come from the caller's own words (and a trend's headlines), never invented.
import nlp from 'compromise';
import { phraseMatcher } from '../../media/footage/text-match.ts';
import { analyzeBrief } from '../../media/script/brief-analysis.ts';
import { isStopWord } from '../../media/script/english.ts';

/** A primary keyword longer than this is a headline, not a search phrase: its main noun phrase is used. */
const MAX_PRIMARY_WORDS = 5;
const MAX_SECONDARY_KEYWORDS = 8;
/** Search engines show about 60 characters of a URL path; a slug longer than this is cut at a word. */
const MAX_SLUG_CHARS = 60;

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Noun phrases of a text (compromise), cleaned of leading numbers, determiners and possessives. */
function nounPhrases(text: string): string[] {
  const phrases = nlp(text).nouns().out('array') as string[];
  return phrases
    .map((phrase) => {
      const ws = words(phrase.replace(/[^\p{L}\p{N}'’\s-]/gu, ' '));
      while (ws.length > 1 && (isStopWord(ws[0]!.toLowerCase()) || /^\d+$/.test(ws[0]!))) ws.shift();
      return ws.join(' ');
    })
    .filter((phrase) => /\p{L}{2}/u.test(phrase) && !isStopWord(phrase.toLowerCase()));
}

/**
 * The phrase the article targets: the brief's subject as brief-analysis reads it ("how compound interest grows
 * savings" → "compound interest"); for a list brief or a long one, its last noun phrase ("5 mistakes beginners
 * make with sourdough" → "sourdough"). The pillar stands in when there is no topic.
 */
export function primaryKeyword(brief: { topic?: string; pillar?: string }): string {
  const text = (brief.topic ?? brief.pillar ?? '').trim();
  const analysis = analyzeBrief({ topic: text });
  let keyword = analysis.topic;
  if (analysis.frame === 'list' || words(keyword).length > MAX_PRIMARY_WORDS) {
    const phrases = nounPhrases(keyword).filter((p) => words(p).length <= MAX_PRIMARY_WORDS);
    keyword = phrases.at(-1) ?? words(keyword).slice(0, MAX_PRIMARY_WORDS).join(' ');
  }
  return keyword.replace(/[.!?;:,]+$/, '').trim();
}

/** Whether `text` says `keyword` as whole words, its last word singular or plural, in any case. */
export function mentions(text: string, keyword: string): boolean {
  return phraseMatcher(keyword)?.(text) ?? false;
}

/**
 * Secondary keywords: the pillar first, then the noun phrases of the topic and of `extra` (a trend's headlines,
 * an LLM's suggestions), without the primary keyword and without repeats, at most MAX_SECONDARY_KEYWORDS.
 */
export function secondaryKeywords(
  primary: string,
  brief: { topic?: string; pillar?: string },
  extra: readonly string[] = [],
): string[] {
  const candidates = [
    ...(brief.pillar ? [brief.pillar.trim()] : []),
    ...nounPhrases(brief.topic ?? ''),
    ...extra.flatMap((text) => (words(text).length <= MAX_PRIMARY_WORDS ? [text.trim()] : nounPhrases(text))),
  ];
  const seen = new Set([primary.toLowerCase()]);
  const out: string[] = [];
  for (const candidate of candidates) {
    const key = candidate.toLowerCase();
    if (!candidate || seen.has(key) || words(candidate).length > MAX_PRIMARY_WORDS) continue;
    seen.add(key);
    out.push(candidate);
    if (out.length === MAX_SECONDARY_KEYWORDS) break;
  }
  return out;
}

/** A URL slug: lower-case ASCII words joined by hyphens, accents folded, at most MAX_SLUG_CHARS, cut at a word. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_CHARS) return slug;
  const cut = slug.slice(0, MAX_SLUG_CHARS + 1);
  return cut.slice(0, Math.max(cut.lastIndexOf('-'), 1)).replace(/-+$/, '');
}
