import { isNiche } from '../../media/footage/niches.ts';
import { TREND_CATEGORIES, type TrendCategory } from '../sources/source-item.ts';

// What a news request's `niches` say about the stories it wants. A niche that names a trend category (the
// category itself, a footage niche of that beat, or a common word for it) picks the radar's trends of that
// category. Other footage niches (luxury, nature, travel…) only choose footage. Any other niche ("robots")
// names a subject, and is matched against the trends' topics like a keyword.

/** First path segment (or whole niche) → category. Footage niches by family, then common words. */
const CATEGORY_OF: Readonly<Record<string, TrendCategory>> = {
  ...Object.fromEntries(TREND_CATEGORIES.map((c) => [c, c])),
  // Footage niche families (src/media/footage/niches.ts) that are a news beat.
  finance: 'business',
  ecommerce: 'business',
  realestate: 'business',
  gym: 'health',
  space: 'science',
  // Common names of the beats.
  technology: 'tech',
  ai: 'tech',
  startups: 'tech',
  gadgets: 'tech',
  cybersecurity: 'tech',
  economy: 'business',
  markets: 'business',
  crypto: 'business',
  money: 'business',
  sport: 'sports',
  football: 'sports',
  soccer: 'sports',
  basketball: 'sports',
  tennis: 'sports',
  cricket: 'sports',
  movies: 'entertainment',
  film: 'entertainment',
  music: 'entertainment',
  celebrities: 'entertainment',
  tv: 'entertainment',
  gaming: 'entertainment',
  fitness: 'health',
  medicine: 'health',
  nutrition: 'health',
  wellness: 'health',
  elections: 'politics',
  government: 'politics',
  climate: 'science',
  research: 'science',
};

/** Footage niches whose family is a beat under another name ('default/money' is finance). */
const FOOTAGE_ALIASES: Readonly<Record<string, TrendCategory>> = { 'default/money': 'business' };

export interface NicheReading {
  /** Trend categories to read, in the order the niches named them; empty means all categories. */
  categories: TrendCategory[];
  /** Niches that name a subject rather than a beat or footage: matched against trends like keywords. */
  subjects: string[];
}

export function readNiches(niches: readonly string[]): NicheReading {
  const categories: TrendCategory[] = [];
  const subjects: string[] = [];
  for (const niche of niches) {
    const lower = niche.trim().toLowerCase();
    const category = FOOTAGE_ALIASES[lower] ?? CATEGORY_OF[lower.split('/')[0]!];
    if (category) {
      if (!categories.includes(category)) categories.push(category);
    } else if (!isNiche(niche)) {
      subjects.push(niche);
    }
  }
  return { categories, subjects };
}
