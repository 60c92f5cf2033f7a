import { hashString, seededRandom, shuffled } from '../../media/script/seeded.ts';
import { fillTemplate, markers, type Slots } from '../../media/script/template.ts';
import { contentTerms } from '../../media/script/key-sentences.ts';
import { CLAIMS, CLOSERS, HOOKS, QUOTE_THEMES, THEMES, TURNS, type QuoteThemeName } from './quote-library.ts';

// Writes the motivational quote when the caller sends none: a claim and a turn from the pattern library,
// filled with one theme's vocabulary (different words in each sentence), sometimes a short closer. The same
// seed (the job id) writes the same quote, so a retried job says the same thing.

export interface WrittenQuote {
  quote: string;
  theme: QuoteThemeName;
}

export interface MotivationalNarration {
  /** What is narrated: the hook (when used) on the first line, then the quote. */
  script: string;
  quote: string;
  hook?: string;
  theme?: QuoteThemeName;
  quoteSource: 'sent' | 'written';
}

/** Footage niches that name a theme outright. */
const CLIP_TYPE_THEMES: Record<string, QuoteThemeName> = {
  'mindset/discipline': 'discipline',
  'mindset/resilience': 'resilience',
  'mindset/growth': 'growth',
  'mindset/stoic': 'patience',
  gym: 'discipline',
  'health/fitness': 'discipline',
  'business/hustle': 'consistency',
  'business/success': 'self_belief',
  'business/entrepreneur': 'courage',
  spiritual: 'patience',
  'spiritual/meditation': 'patience',
  'health/yoga': 'patience',
  'health/mental': 'resilience',
};

export function themeForClipType(clipType: string | undefined): QuoteThemeName | undefined {
  return clipType ? CLIP_TYPE_THEMES[clipType] : undefined;
}

/** The theme whose cue words a text uses most; none when it uses none. */
export function themeOfText(text: string): QuoteThemeName | undefined {
  const terms = new Set(contentTerms(text));
  const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  let best: { theme: QuoteThemeName; hits: number } | undefined;
  for (const theme of QUOTE_THEMES) {
    const hits = THEMES[theme].cues.filter((cue) =>
      cue.includes(' ') ? lower.includes(` ${cue} `) : terms.has(contentTerms(cue)[0] ?? cue),
    ).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { theme, hits };
  }
  return best?.theme;
}

/** Slot values for sentence `n` of a quote: each sentence takes the next unused word of every list. */
function slotsFor(theme: QuoteThemeName, decks: Record<string, string[]>, n: number): Slots {
  const pickFrom = (name: string) => decks[name]![n % decks[name]!.length];
  return {
    act: pickFrom('acts'),
    struggle: pickFrom('struggles'),
    reward: pickFrom('rewards'),
    excuse: pickFrom('excuses'),
    comfort: pickFrom('comforts'),
    virtue: THEMES[theme].virtue,
  };
}

export function writeQuote(options: { seed: string; theme?: QuoteThemeName }): WrittenQuote {
  const random = seededRandom(`quote:${options.seed}`);
  const theme = options.theme ?? QUOTE_THEMES[Math.floor(random() * QUOTE_THEMES.length)]!;
  const vocabulary = THEMES[theme];
  const decks: Record<string, string[]> = {
    acts: shuffled(vocabulary.acts, random),
    struggles: shuffled(vocabulary.struggles, random),
    rewards: shuffled(vocabulary.rewards, random),
    excuses: shuffled(vocabulary.excuses, random),
    comforts: shuffled(vocabulary.comforts, random),
  };
  const claim = fillTemplate(CLAIMS[Math.floor(random() * CLAIMS.length)]!, slotsFor(theme, decks, 0))!;
  const turn = fillTemplate(TURNS[Math.floor(random() * TURNS.length)]!, slotsFor(theme, decks, 1))!;
  const lines = [claim, turn];
  if (random() < 0.5) lines.push(CLOSERS[Math.floor(random() * CLOSERS.length)]!);
  return { quote: lines.join(' '), theme };
}

/** An opening line; hooks that name the theme's words are used only when the theme is known. */
export function writeHook(options: { seed: string; theme?: QuoteThemeName }): string {
  const usable = options.theme ? HOOKS : HOOKS.filter((h) => markers(h).length === 0);
  const template = usable[hashString(`hook:${options.seed}`) % usable.length]!;
  if (!options.theme) return template;
  const vocabulary = THEMES[options.theme];
  const struggles = vocabulary.struggles;
  return fillTemplate(template, {
    virtue: vocabulary.virtue,
    struggle: struggles[hashString(options.seed) % struggles.length],
  })!;
}

export function motivationalNarration(input: {
  quote?: string;
  includeHook: boolean;
  clipType?: string;
  seed: string;
}): MotivationalNarration {
  const sent = input.quote?.trim().replace(/\s+/g, ' ');
  const written = sent
    ? undefined
    : writeQuote({ seed: input.seed, theme: themeForClipType(input.clipType) });
  const quote = sent ?? written!.quote;
  const theme = written?.theme ?? themeOfText(quote);
  const hook = input.includeHook ? writeHook({ seed: input.seed, theme }) : undefined;
  return {
    script: hook ? `${hook}\n${quote}` : quote,
    quote,
    ...(hook ? { hook } : {}),
    ...(theme ? { theme } : {}),
    quoteSource: sent ? 'sent' : 'written',
  };
}
