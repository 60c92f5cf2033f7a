// The brand's name and tagline, read from what the site says about itself: og:site_name, the title,
// the logo's alt text, the meta descriptions and the hero heading.
import { getDomain } from 'tldts';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import { cleanText, homeDocument, type SiteDocument } from './site-documents.ts';
import { countWords } from './word-count.ts';

// Separators sites put between the brand and the page's subject in <title>.
const TITLE_SEPARATORS = /\s+[-–—|·•»/]\s+|\s*[|–—·•»｜]\s*|:\s+|：\s*/;
const GENERIC_SEGMENT = /^(home|homepage|home page|welcome|official site|official website|start)$/i;
const MAX_TAGLINE_CHARS = 140;
const MAX_NAME_CHARS = 80;

function meta($: SiteDocument['$'], key: string): string {
  return cleanText($(`meta[property="${key}"], meta[name="${key}"]`).first().attr('content') ?? '');
}

/** Letters and digits only, lower-cased: "Acme Co." and "acme-co" compare equal. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The registrable domain's label ("acme" for www.acme.co.uk). */
export function domainLabel(url: string): string {
  const host = new URL(url).hostname;
  const domain = getDomain(host) ?? host;
  return domain.split('.')[0] ?? domain;
}

function titleSegments(doc: SiteDocument): string[] {
  return cleanText(doc.$('head > title').first().text() || doc.$('title').first().text())
    .split(TITLE_SEPARATORS)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !GENERIC_SEGMENT.test(s));
}

/** The alt text of the header logo, without the word "logo". */
function logoAlt(doc: SiteDocument): string {
  const { $ } = doc;
  const img = $('header img[alt], nav img[alt], img[alt*="logo" i], img[class*="logo" i][alt]').first();
  return cleanText((img.attr('alt') ?? '').replace(/\blogo(type)?\b/gi, '').replace(/[-–|:]+\s*$/, ''));
}

/** Cut at a word boundary to fit the kit's 80-character name. */
function fitName(name: string): string {
  if (name.length <= MAX_NAME_CHARS) return name;
  return name.slice(0, MAX_NAME_CHARS + 1).replace(/\s+\S*$/, '') || name.slice(0, MAX_NAME_CHARS);
}

/**
 * og:site_name when present; else the title segment that matches the domain (or, failing that, the
 * shortest one); else the logo's alt text; else the domain's label, capitalized. At most 80 characters.
 */
export function extractName(crawl: SiteCrawl): string {
  return fitName(nameFromPages(crawl));
}

function nameFromPages(crawl: SiteCrawl): string {
  const home = homeDocument(crawl);
  const label = domainLabel(crawl.homeUrl || crawl.requestedUrl);
  const fallback = label.charAt(0).toUpperCase() + label.slice(1);
  if (!home) return fallback;
  const siteName = meta(home.$, 'og:site_name') || meta(home.$, 'application-name');
  if (siteName) return siteName;
  const segments = titleSegments(home);
  const key = squash(label);
  const matching = segments.find((s) => {
    const k = squash(s);
    return k === key || (k.length >= 3 && (key.includes(k) || k.includes(key)) && countWords(s) <= 4);
  });
  if (matching) return matching;
  const alt = logoAlt(home);
  if (alt) return alt;
  const shortest = [...segments].sort((a, b) => a.length - b.length)[0];
  if (shortest && countWords(shortest) <= 4) return shortest;
  return fallback;
}

/** The first sentence, cut at a word boundary to fit. */
function trimTagline(text: string): string {
  const first = cleanText(text).split(/(?<=[.!?])\s+(?=\p{Lu})|(?<=[。！？])/u)[0] ?? '';
  const sentence = first.replace(/[.。\s]+$/, '');
  if (sentence.length <= MAX_TAGLINE_CHARS) return sentence;
  const cut = sentence.slice(0, MAX_TAGLINE_CHARS + 1).replace(/\s+\S*$/, '');
  return `${cut.replace(/[,;:\s]+$/, '')}…`;
}

interface TaglineCandidate {
  text: string;
  /** How brand-like the place is: a hero heading or a title's subject reads as a tagline more than a description. */
  prior: number;
}

function scoreTagline(candidate: TaglineCandidate, name: string): number {
  const words = countWords(candidate.text);
  if (words < 2 || squash(candidate.text) === squash(name)) return 0;
  // Taglines are short: 3–12 words read best; longer text is a description, shorter a label.
  const fit = words < 3 ? 0.5 : words <= 12 ? 1 : words <= 20 ? 0.7 : 0.4;
  return candidate.prior * fit;
}

/** The most tagline-like line among the hero heading, the title's subject and the meta descriptions. */
export function extractTagline(crawl: SiteCrawl, name: string): string {
  const home = homeDocument(crawl);
  if (!home) return '';
  const { $ } = home;
  const nameKey = squash(name);
  const titleRest = titleSegments(home).filter((s) => squash(s) !== nameKey);
  const candidates: TaglineCandidate[] = [
    { text: cleanText($('h1').first().text()), prior: 3 },
    { text: titleRest.join(' – '), prior: 2.5 },
    { text: meta($, 'description'), prior: 2 },
    { text: meta($, 'og:description'), prior: 1.8 },
    { text: cleanText($('h1').first().nextAll('p, h2').first().text()), prior: 1.2 },
    { text: cleanText($('h2').first().text()), prior: 1 },
  ]
    .filter((c) => c.text !== '')
    .map((c) => ({ ...c, text: trimTagline(c.text) }));
  let best: { text: string; score: number } | undefined;
  for (const c of candidates) {
    const score = scoreTagline(c, name);
    if (score > 0 && (!best || score > best.score)) best = { text: c.text, score };
  }
  return best?.text ?? '';
}
