// The figures a text states: digits ("1,200", "40%", "$2k", "3x", "2.000 €") and numbers in words ("forty
// percent", "two thousand dollars", "three times"), each with its value and what it counts. Words are read by
// compromise's number parser (English). Ordinals ("first", "3rd"), a lone "one" ("one simple idea") and digits
// inside names ("B2B", "GPT-4", "H.264", "3D") are not figures; a year is (a count), as is any date number.
import nlp from 'compromise';

export type FigureKind = 'percent' | 'money' | 'multiple' | 'count';

export interface Figure {
  /** As written, unit included. */
  text: string;
  start: number;
  end: number;
  kind: FigureKind;
  /** The value; two readings when a separator is ambiguous and no language says which ("2.000"). */
  values: number[];
  /** ISO 4217 code for money. */
  currency?: string;
  spelled: boolean;
}

export interface FigureOptions {
  /** The text's language: fixes the decimal mark of digits; numbers in words are read in English only. */
  language?: string;
}

const SYMBOL_CURRENCY: Readonly<Record<string, string>> = {
  $: 'USD',
  us$: 'USD',
  ca$: 'CAD',
  c$: 'CAD',
  a$: 'AUD',
  au$: 'AUD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
};
const WORD_CURRENCY: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:usd|dollars?|bucks)$/i, 'USD'],
  [/^(?:eur|euros?)$/i, 'EUR'],
  [/^(?:gbp|pounds?)$/i, 'GBP'],
  [/^(?:jpy|yen)$/i, 'JPY'],
  [/^(?:inr|rupees?)$/i, 'INR'],
  [/^cad$/i, 'CAD'],
  [/^aud$/i, 'AUD'],
  [/^chf$/i, 'CHF'],
];
const CURRENCY_WORDS = 'usd|eur|gbp|jpy|inr|cad|aud|chf|dollars?|bucks|euros?|pounds?|yen|rupees?';
const SYMBOLS = String.raw`(?:us|ca|au|a|c)?\$|[€£¥₹]`;

/**
 * Digits, with an optional currency before them and a scale after them. Not preceded by a letter, digit or
 * separator, nor by "letter-" (model names such as GPT-4): those digits belong to a word.
 */
const DIGITS = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.,]|\p{L}-)` +
    String.raw`(?<cur>(?:${SYMBOLS})\s?|(?:usd|eur|gbp|jpy|inr|cad|aud|chf)\s)?` +
    String.raw`(?<num>\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)` +
    String.raw`(?<scale>\s?(?:thousand|million|billion|trillion)\b|(?:k|mm|m|bn|b)(?![\p{L}\p{N}]))?`,
  'giu',
);

/** What follows a number and says what it counts. */
const UNIT_AFTER: ReadonlyArray<readonly [RegExp, FigureKind]> = [
  [/^\s?(?:%|percent\b|per cent\b|percentage points?\b)/i, 'percent'],
  [/^(?:\s?[x×](?![\p{L}\p{N}])|-?\s?fold\b|\s(?:times)\b)/iu, 'multiple'],
  [new RegExp(String.raw`^\s?(?:${SYMBOLS}|(?:${CURRENCY_WORDS})\b)`, 'iu'), 'money'],
];

const SCALES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:k|thousand)$/i, 1e3],
  [/^(?:m|mm|million)$/i, 1e6],
  [/^(?:b|bn|billion)$/i, 1e9],
  [/^trillion$/i, 1e12],
];

/** Words compromise does not read as numbers but which state one: "doubled", "half". */
const MULTIPLE_WORDS: ReadonlyArray<readonly [RegExp, FigureKind, number]> = [
  [/(?<![\p{L}\p{N}-])(?:twice|doubl(?:e|es|ed|ing))(?![\p{L}\p{N}-])/giu, 'multiple', 2],
  [/(?<![\p{L}\p{N}-])tripl(?:e|es|ed|ing)(?![\p{L}\p{N}-])/giu, 'multiple', 3],
  [/(?<![\p{L}\p{N}-])quadrupl(?:e|es|ed|ing)(?![\p{L}\p{N}-])/giu, 'multiple', 4],
  [/(?<![\p{L}\p{N}-])(?:half|halv(?:e|es|ed|ing))(?![\p{L}\p{N}-])/giu, 'percent', 50],
];

/** An idiom, not a figure. */
const IDIOMS = /(?<![\p{N}])24\/7(?![\p{N}])/gu;

/** Cardinal words of compromise's own lexicon; a text without one has no number in words to parse. */
const CARDINAL_WORDS: ReadonlySet<string> = (() => {
  const lexicon = (
    nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }
  ).model().one.lexicon;
  return new Set(
    Object.entries(lexicon)
      .filter(([, tags]) => String(tags).includes('Cardinal'))
      .map(([word]) => word),
  );
})();

const decimalMarks = new Map<string, '.' | ',' | undefined>();

/** The decimal mark of a language ("de" → ","), from the platform's locale data. */
function decimalMarkOf(language: string | undefined): '.' | ',' | undefined {
  if (!language) return undefined;
  let mark = decimalMarks.get(language);
  if (!decimalMarks.has(language)) {
    let found: string | undefined;
    try {
      found = new Intl.NumberFormat(language).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
    } catch {
      found = undefined;
    }
    mark = found === '.' || found === ',' ? found : undefined;
    decimalMarks.set(language, mark);
  }
  return mark;
}

/** The readings of a written number: one with a known decimal mark, two when "2.000" could be either. */
export function readDigits(raw: string, decimalMark: '.' | ',' | undefined): number[] {
  const s = raw.replace(/['\u00a0\u202f ]/g, '');
  const read = (mark: '.' | ','): number => {
    const other = mark === '.' ? ',' : '.';
    return Number(s.split(other).join('').replace(mark, '.'));
  };
  if (decimalMark) return [read(decimalMark)];
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  if (dots > 0 && commas > 0) return [read(s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',')];
  if (dots + commas === 0) return [Number(s)];
  const mark = dots > 0 ? '.' : ',';
  if (dots + commas > 1) return [read(mark === '.' ? ',' : '.')];
  // One separator: before exactly three digits it may group thousands or mark decimals.
  if (/^\d+[.,]\d{3}$/.test(s)) return [read(mark === '.' ? ',' : '.'), read(mark)];
  return [read(mark)];
}

function scaleOf(word: string | undefined): number {
  const w = word?.trim();
  if (!w) return 1;
  return SCALES.find(([re]) => re.test(w))?.[1] ?? 1;
}

function currencyOf(token: string): string | undefined {
  const t = token.trim().toLowerCase();
  return SYMBOL_CURRENCY[t] ?? WORD_CURRENCY.find(([re]) => re.test(t))?.[1];
}

/** The unit right after a number, and how far it reaches. */
function unitAfter(rest: string): { kind: FigureKind; length: number; currency?: string } | undefined {
  for (const [re, kind] of UNIT_AFTER) {
    const m = re.exec(rest);
    if (m) return { kind, length: m[0].length, currency: kind === 'money' ? currencyOf(m[0]) : undefined };
  }
  return undefined;
}

function clean(value: number): number {
  return Number(value.toPrecision(12));
}

function digitFigures(text: string, decimalMark: '.' | ',' | undefined): Figure[] {
  const out: Figure[] = [];
  for (const m of text.matchAll(DIGITS)) {
    const g = m.groups!;
    const start = m.index;
    let end = start + m[0].length;
    const scale = scaleOf(g.scale);
    let kind: FigureKind = 'count';
    let currency = g.cur ? currencyOf(g.cur) : undefined;
    if (currency) kind = 'money';
    const unit = unitAfter(text.slice(end));
    if (unit && (kind === 'count' || unit.kind === 'money')) {
      kind = unit.kind;
      currency = unit.currency ?? currency;
      end += unit.length;
    }
    // "1st", "3D", "5G": digits that run into letters are part of a word.
    if (/^[\p{L}\p{N}]/u.test(text.slice(end))) continue;
    out.push({
      text: text.slice(start, end).trim(),
      start,
      end,
      kind,
      values: readDigits(g.num!, decimalMark).map((v) => clean(v * scale)),
      currency,
      spelled: false,
    });
  }
  return out;
}

interface NumberJson {
  text: string;
  number?: { num?: number };
  offset?: { start: number; length: number };
}

function wordFigures(text: string): Figure[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (!words.some((w) => CARDINAL_WORDS.has(w))) return [];
  // "ten-fold" → "ten fold" (same length, so offsets hold) lets the parser see the number.
  const doc = nlp(text.replace(/-(fold)\b/gi, ' $1'));
  const found = doc.numbers().isCardinal().json({ offset: true }) as NumberJson[];
  const out: Figure[] = [];
  for (const n of found) {
    const value = n.number?.num;
    if (value === undefined || !n.offset || Number.isNaN(value)) continue;
    const raw = text.slice(n.offset.start, n.offset.start + n.offset.length);
    const spelled = raw.replace(/[\s.,;:!?"')\]]+$/u, '');
    if (/\d/.test(spelled)) continue;
    const start = n.offset.start;
    let end = start + spelled.length;
    const unit = unitAfter(text.slice(end));
    if (unit) end += unit.length;
    // "one thing", "no one", "one-off": a determiner or pronoun, not a quantity.
    if (value === 1 && !unit) continue;
    out.push({
      text: text.slice(start, end),
      start,
      end,
      kind: unit?.kind ?? 'count',
      values: [clean(value)],
      currency: unit?.currency,
      spelled: true,
    });
  }
  return out;
}

function multipleWordFigures(text: string): Figure[] {
  return MULTIPLE_WORDS.flatMap(([re, kind, value]) =>
    [...text.matchAll(re)].map((m) => ({
      text: m[0],
      start: m.index,
      end: m.index + m[0].length,
      kind,
      values: [value],
      spelled: true,
    })),
  );
}

/** Replaces spans with spaces of the same length, so offsets hold and nothing inside them is read. */
export function maskSpans(text: string, patterns: readonly RegExp[]): string {
  let out = text;
  for (const re of patterns) out = out.replace(re, (m) => ' '.repeat(m.length));
  return out;
}

/** Every figure the text states, in order. */
export function findFigures(text: string, options: FigureOptions = {}): Figure[] {
  const masked = maskSpans(text, [IDIOMS]);
  const primary = options.language?.split(/[-_]/)[0]?.toLowerCase();
  const digits = digitFigures(masked, decimalMarkOf(primary));
  const english = primary === undefined || primary === 'en';
  const spelled = english ? [...wordFigures(masked), ...multipleWordFigures(masked)] : [];
  const overlaps = (f: Figure): boolean => digits.some((d) => f.start < d.end && d.start < f.end);
  return [...digits, ...spelled.filter((f) => !overlaps(f))]
    .sort((a, b) => a.start - b.start)
    .map((f) => ({ ...f, text: text.slice(f.start, f.end).trim() }));
}
