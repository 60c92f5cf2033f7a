// The footage niches (the API's clip_type values), how to infer one from a request, and which niches
// stand in for one that has no clips.

import { wordStems } from './text-match.ts';

/** Every clip_type the API accepts, in the API's order. */
export const NICHES = [
  'premium',
  'luxury',
  'motivational',
  'luxury_woman',
  'default/money',
  'tech',
  'tech/abstract',
  'tech/ai',
  'tech/startup',
  'tech/cyber',
  'tech/futurism',
  'tech/hardware',
  'tech/minimal',
  'business',
  'business/office',
  'business/hustle',
  'business/success',
  'business/entrepreneur',
  'finance',
  'finance/trading',
  'finance/crypto',
  'finance/wealth',
  'finance/banking',
  'travel',
  'travel/beaches',
  'travel/cities',
  'travel/adventure',
  'travel/nomad',
  'health',
  'health/fitness',
  'health/yoga',
  'health/nutrition',
  'health/mental',
  'ecommerce',
  'ecommerce/products',
  'ecommerce/shipping',
  'ecommerce/online',
  'mindset',
  'mindset/growth',
  'mindset/discipline',
  'mindset/stoic',
  'mindset/resilience',
  'spiritual',
  'spiritual/meditation',
  'spiritual/energy',
  'spiritual/dark_aesthetic',
  'food',
  'food/cooking',
  'food/plating',
  'food/drinks',
  'urban',
  'urban/nightlife',
  'urban/street',
  'urban/architecture',
  'urban/aerial',
  'realestate',
  'realestate/luxury',
  'realestate/interior',
  'realestate/pools',
  'automotive',
  'default/cars',
  'automotive/driving',
  'default/jets',
  'nature',
  'nature/mountains',
  'nature/forest',
  'nature/water',
  'nature/sunset',
  'abstract',
  'abstract/particles',
  'abstract/gradients',
  'abstract/geometric',
  'abstract/liquid',
  'satisfying',
  'gym',
  'default/houses',
  'Space',
  'tools',
  'art',
  'relaxing',
  'soothing',
  'useful_hacks',
  'wood_works',
  'overlays/particles',
  'overlays/light_leaks',
  'overlays/glitches',
  'overlays/film_grain',
  'overlays/bokeh',
  'overlays/smoke',
  'overlays/vj_loops',
  'colors/gold',
  'colors/neon',
  'colors/black',
  'places/new_york',
  'places/dubai',
  'places/tokyo',
  'events/christmas',
  'events/halloween',
  'events/new_years',
] as const;

export type Niche = (typeof NICHES)[number];

export const DEFAULT_NICHE: Niche = 'business';

const NICHE_SET: ReadonlySet<string> = new Set(NICHES);

export function isNiche(value: string): value is Niche {
  return NICHE_SET.has(value);
}

/**
 * The family a niche belongs to. Most niches are grouped by their path prefix; the legacy `default/*`
 * niches and a few top-level ones belong to the family whose content they show.
 */
const FAMILY_OF: Partial<Record<Niche, Niche>> = {
  'default/money': 'finance',
  'default/cars': 'automotive',
  'default/jets': 'luxury',
  'default/houses': 'realestate',
  premium: 'luxury',
  luxury_woman: 'luxury',
  motivational: 'mindset',
  gym: 'health',
  soothing: 'relaxing',
};

/** Families whose footage reads as close in theme, nearest first. */
const RELATED_FAMILIES: Record<string, Niche[]> = {
  luxury: ['premium', 'luxury_woman', 'realestate/luxury', 'default/jets', 'colors/gold', 'finance/wealth'],
  mindset: ['motivational', 'business/success', 'health/mental', 'spiritual'],
  tech: ['abstract/geometric', 'colors/neon', 'business/office', 'urban/nightlife'],
  business: ['finance', 'ecommerce', 'mindset/growth', 'urban/architecture'],
  finance: ['default/money', 'business', 'luxury', 'tech/abstract'],
  travel: ['nature', 'urban/aerial', 'places/dubai', 'places/tokyo'],
  health: ['gym', 'mindset', 'relaxing', 'nature'],
  ecommerce: ['business', 'tech/startup', 'finance'],
  spiritual: ['relaxing', 'soothing', 'nature', 'Space'],
  food: ['health/nutrition', 'travel', 'art'],
  urban: ['places/new_york', 'places/tokyo', 'places/dubai', 'travel/cities'],
  realestate: ['default/houses', 'urban/architecture', 'luxury'],
  automotive: ['default/cars', 'urban/street', 'luxury'],
  nature: ['travel/adventure', 'relaxing', 'nature/sunset'],
  abstract: ['overlays/particles', 'colors/neon', 'satisfying'],
  satisfying: ['abstract/liquid', 'relaxing', 'useful_hacks'],
  relaxing: ['soothing', 'nature/water', 'spiritual/meditation'],
  Space: ['spiritual/energy', 'abstract/particles', 'tech/futurism'],
  tools: ['wood_works', 'useful_hacks', 'tech/hardware'],
  art: ['abstract', 'satisfying', 'wood_works'],
  useful_hacks: ['tools', 'satisfying', 'ecommerce/products'],
  wood_works: ['tools', 'art', 'satisfying'],
  overlays: ['abstract/particles', 'abstract/gradients'],
  colors: ['abstract/gradients', 'abstract/liquid'],
  places: ['urban', 'travel/cities', 'urban/aerial'],
  events: ['abstract/particles', 'overlays/bokeh', 'colors/gold'],
};

function familyOf(niche: Niche): string {
  return FAMILY_OF[niche] ?? niche.split('/')[0]!;
}

function membersOf(family: string): Niche[] {
  return NICHES.filter((n) => n === family || n.startsWith(`${family}/`) || FAMILY_OF[n] === family);
}

/**
 * Niches ordered by how well their footage stands in for `niche`: the niche itself, its family (parent
 * first, then siblings), then thematically related niches and their families, ending at `abstract`.
 */
export function closestNiches(niche: Niche): Niche[] {
  const order: Niche[] = [];
  const add = (n: Niche): void => {
    if (!order.includes(n)) order.push(n);
  };
  add(niche);
  const family = familyOf(niche);
  if (isNiche(family)) add(family);
  membersOf(family).forEach(add);
  for (const related of RELATED_FAMILIES[family] ?? []) {
    add(related);
    const relatedFamily = familyOf(related);
    if (isNiche(relatedFamily)) add(relatedFamily);
  }
  const withoutAbstract = order.filter((n) => n !== 'abstract');
  return niche === 'abstract' ? order : [...withoutAbstract, 'abstract'];
}

/**
 * Words and phrases that point to a niche. Single words are matched by stem, phrases word by word.
 * Only niches with a topic a request can name get a vocabulary; visual niches (overlays, colours) are
 * chosen explicitly.
 */
const VOCABULARY: Partial<Record<Niche, string[]>> = {
  premium: ['premium', 'high end', 'exclusive', 'vip'],
  luxury: [
    'luxury',
    'luxurious',
    'lavish',
    'opulent',
    'rolex',
    'designer',
    'yacht',
    'millionaire',
    'billionaire',
  ],
  luxury_woman: [
    'luxury woman',
    'glamour',
    'handbag',
    'jewelry',
    'jewellery',
    'perfume',
    'makeup',
    'beauty',
    'fashion',
  ],
  motivational: ['motivation', 'motivational', 'inspire', 'inspirational', 'dream big', 'never give up'],
  'default/money': ['money', 'cash', 'income', 'salary', 'side hustle income', 'rich'],
  tech: ['technology', 'tech', 'digital', 'gadget', 'internet'],
  'tech/abstract': ['data', 'algorithm', 'network', 'cloud'],
  'tech/ai': [
    'ai',
    'artificial intelligence',
    'machine learning',
    'chatgpt',
    'gpt',
    'llm',
    'neural',
    'robot',
    'automation',
  ],
  'tech/startup': [
    'saas',
    'software',
    'startup',
    'app',
    'founder',
    'product launch',
    'developer',
    'coding',
    'programming',
    'api',
  ],
  'tech/cyber': [
    'cybersecurity',
    'security',
    'hacker',
    'hacking',
    'privacy',
    'password',
    'malware',
    'encryption',
  ],
  'tech/futurism': ['future', 'futuristic', 'metaverse', 'virtual reality', 'vr', 'innovation', 'sci fi'],
  'tech/hardware': [
    'hardware',
    'chip',
    'semiconductor',
    'computer',
    'laptop',
    'smartphone',
    'iphone',
    'processor',
  ],
  'tech/minimal': ['minimal', 'minimalist', 'minimalism', 'clean design'],
  business: [
    'business',
    'company',
    'corporate',
    'management',
    'strategy',
    'marketing',
    'sales',
    'brand',
    'b2b',
    'consulting',
  ],
  'business/office': ['office', 'meeting', 'coworker', 'remote work', 'productivity', 'workplace', 'team'],
  'business/hustle': ['hustle', 'grind', 'side hustle', 'work hard', 'late night work'],
  'business/success': ['success', 'successful', 'achievement', 'win', 'goal'],
  'business/entrepreneur': [
    'entrepreneur',
    'entrepreneurship',
    'small business',
    'own business',
    'ceo',
    'self employed',
  ],
  finance: ['finance', 'financial', 'budget', 'saving', 'debt', 'tax', 'economy', 'inflation', 'loan'],
  'finance/trading': [
    'trading',
    'trader',
    'stock',
    'stock market',
    'forex',
    'option',
    'chart',
    'day trading',
    'nasdaq',
  ],
  'finance/crypto': [
    'crypto',
    'cryptocurrency',
    'bitcoin',
    'ethereum',
    'blockchain',
    'nft',
    'web3',
    'defi',
    'token',
    'altcoin',
  ],
  'finance/wealth': [
    'wealth',
    'wealthy',
    'passive income',
    'investing',
    'investment',
    'investor',
    'net worth',
    'compound interest',
    'retirement',
  ],
  'finance/banking': ['bank', 'banking', 'credit card', 'mortgage', 'interest rate', 'fintech', 'payment'],
  travel: ['travel', 'trip', 'vacation', 'holiday', 'tourism', 'tourist', 'destination', 'flight'],
  'travel/beaches': ['beach', 'island', 'tropical', 'maldives', 'bali', 'ocean view', 'resort'],
  'travel/cities': ['city break', 'europe', 'paris', 'london', 'rome', 'sightseeing'],
  'travel/adventure': ['adventure', 'hiking', 'backpacking', 'camping', 'expedition', 'safari', 'road trip'],
  'travel/nomad': ['digital nomad', 'nomad', 'work from anywhere', 'van life'],
  health: ['health', 'healthy', 'wellness', 'doctor', 'medical', 'sleep', 'longevity'],
  'health/fitness': [
    'fitness',
    'workout',
    'exercise',
    'training',
    'cardio',
    'running',
    'athlete',
    'weight loss',
  ],
  'health/yoga': ['yoga', 'pilates', 'stretching', 'asana'],
  'health/nutrition': [
    'nutrition',
    'diet',
    'protein',
    'vitamin',
    'supplement',
    'keto',
    'calorie',
    'meal prep',
  ],
  'health/mental': ['mental health', 'anxiety', 'depression', 'stress', 'therapy', 'burnout', 'self care'],
  ecommerce: ['ecommerce', 'e commerce', 'online store', 'shopify', 'amazon', 'dropshipping', 'retail'],
  'ecommerce/products': ['product', 'unboxing', 'review', 'packaging'],
  'ecommerce/shipping': ['shipping', 'delivery', 'logistics', 'warehouse', 'fulfillment', 'parcel'],
  'ecommerce/online': ['online shopping', 'checkout', 'cart', 'discount', 'black friday', 'coupon'],
  mindset: ['mindset', 'mentality', 'belief', 'habit', 'self improvement', 'personal development'],
  'mindset/growth': ['growth mindset', 'learning', 'growth', 'improve', 'skill'],
  'mindset/discipline': ['discipline', 'self discipline', 'routine', 'consistency', 'focus', 'willpower'],
  'mindset/stoic': ['stoic', 'stoicism', 'marcus aurelius', 'seneca', 'epictetus', 'philosophy'],
  'mindset/resilience': [
    'resilience',
    'resilient',
    'overcome',
    'adversity',
    'failure',
    'comeback',
    'struggle',
  ],
  spiritual: [
    'spiritual',
    'spirituality',
    'soul',
    'universe',
    'manifest',
    'manifestation',
    'law of attraction',
  ],
  'spiritual/meditation': ['meditation', 'meditate', 'mindfulness', 'breathing', 'breathwork', 'calm mind'],
  'spiritual/energy': ['energy', 'chakra', 'aura', 'vibration', 'frequency', 'crystal', 'healing'],
  'spiritual/dark_aesthetic': ['dark aesthetic', 'occult', 'tarot', 'witch', 'shadow work', 'mystic'],
  food: ['food', 'recipe', 'restaurant', 'eat', 'dish', 'chef', 'snack'],
  'food/cooking': ['cooking', 'cook', 'bake', 'baking', 'kitchen', 'grill'],
  'food/plating': ['plating', 'fine dining', 'gourmet', 'michelin'],
  'food/drinks': ['drink', 'coffee', 'cocktail', 'wine', 'tea', 'smoothie', 'beer', 'bar'],
  urban: ['urban', 'city', 'downtown', 'metropolis'],
  'urban/nightlife': ['nightlife', 'club', 'party', 'night out', 'neon sign'],
  'urban/street': ['street', 'street style', 'sneaker', 'skateboard', 'graffiti'],
  'urban/architecture': ['architecture', 'skyscraper', 'building', 'skyline'],
  'urban/aerial': ['aerial', 'drone', 'bird eye'],
  realestate: [
    'real estate',
    'realestate',
    'property',
    'realtor',
    'landlord',
    'rental',
    'airbnb',
    'housing market',
  ],
  'realestate/luxury': ['mansion', 'villa', 'penthouse', 'luxury home', 'estate'],
  'realestate/interior': [
    'interior',
    'interior design',
    'home decor',
    'living room',
    'renovation',
    'furniture',
  ],
  'realestate/pools': ['pool', 'swimming pool', 'infinity pool'],
  automotive: ['automotive', 'auto', 'vehicle', 'motor', 'dealership', 'ev', 'tesla'],
  'default/cars': ['car', 'supercar', 'sports car', 'lamborghini', 'ferrari', 'porsche'],
  'automotive/driving': ['driving', 'drive', 'road', 'highway', 'racing'],
  'default/jets': ['private jet', 'jet', 'aviation', 'pilot', 'airplane'],
  nature: ['nature', 'wildlife', 'outdoor', 'landscape', 'earth', 'environment', 'climate'],
  'nature/mountains': ['mountain', 'alps', 'summit', 'peak', 'snow'],
  'nature/forest': ['forest', 'tree', 'woods', 'jungle', 'rainforest'],
  'nature/water': ['water', 'river', 'lake', 'waterfall', 'ocean', 'sea', 'wave', 'rain'],
  'nature/sunset': ['sunset', 'sunrise', 'golden hour', 'dusk', 'dawn'],
  abstract: ['abstract'],
  satisfying: ['satisfying', 'oddly satisfying', 'asmr', 'kinetic sand', 'slime'],
  gym: ['gym', 'bodybuilding', 'weightlifting', 'powerlifting', 'muscle', 'bench press', 'deadlift'],
  'default/houses': ['house', 'home', 'homeowner', 'first home'],
  Space: [
    'space',
    'astronomy',
    'galaxy',
    'planet',
    'nasa',
    'star',
    'cosmos',
    'rocket',
    'astronaut',
    'moon',
    'mars',
  ],
  tools: ['tool', 'diy', 'repair', 'drill', 'workshop', 'mechanic'],
  art: ['art', 'artist', 'painting', 'drawing', 'illustration', 'sculpture', 'design'],
  relaxing: ['relaxing', 'relax', 'relaxation', 'chill', 'unwind', 'lofi', 'cozy'],
  soothing: ['soothing', 'gentle', 'peaceful', 'tranquil', 'sleep sound'],
  useful_hacks: ['hack', 'life hack', 'tip', 'trick', 'how to', 'tutorial'],
  wood_works: ['woodworking', 'wood', 'carpentry', 'carpenter', 'furniture making', 'lathe'],
  'places/new_york': ['new york', 'nyc', 'manhattan', 'brooklyn'],
  'places/dubai': ['dubai', 'abu dhabi', 'uae', 'burj khalifa'],
  'places/tokyo': ['tokyo', 'japan', 'japanese', 'shibuya', 'osaka'],
  'events/christmas': ['christmas', 'xmas', 'santa', 'holiday season', 'advent'],
  'events/halloween': ['halloween', 'spooky', 'pumpkin', 'costume', 'haunted'],
  'events/new_years': ['new year', 'new years', 'nye', 'countdown', 'fireworks', 'resolution'],
};

interface VocabularyEntry {
  niche: Niche;
  phrase: string;
  stems: string[];
}

const VOCABULARY_ENTRIES: VocabularyEntry[] = Object.entries(VOCABULARY).flatMap(([niche, phrases]) =>
  phrases.map((phrase) => ({ niche: niche as Niche, phrase, stems: wordStems(phrase) })),
);

export interface NicheRequest {
  industry?: string;
  keywords?: string[];
  brief: string;
}

export interface NicheInference {
  niche: Niche;
  reason: string;
}

// An industry names the topic outright; keywords are chosen hints; the brief is free text.
const FIELD_WEIGHTS = { industry: 3, keywords: 2, brief: 1 } as const;

function containsRun(haystack: string[], needle: string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Picks the niche a request is about by scoring every niche's vocabulary against the industry,
 * keywords and brief (phrases count once per field, longer phrases weigh more). Falls back to the
 * default niche when nothing matches. An industry that is itself a niche name wins outright.
 */
export function inferNiche(request: NicheRequest): NicheInference {
  const industry = request.industry?.trim() ?? '';
  if (isNiche(industry)) return { niche: industry, reason: `industry '${industry}' is a niche` };

  // Each keyword is matched on its own so that a phrase never spans two keywords.
  const fields: Record<keyof typeof FIELD_WEIGHTS, string[][]> = {
    industry: [wordStems(industry)],
    keywords: (request.keywords ?? []).map(wordStems),
    brief: [wordStems(request.brief)],
  };
  const scores = new Map<Niche, { score: number; hits: string[] }>();
  for (const entry of VOCABULARY_ENTRIES) {
    for (const [field, weight] of Object.entries(FIELD_WEIGHTS) as [keyof typeof fields, number][]) {
      if (!fields[field].some((words) => containsRun(words, entry.stems))) continue;
      const current = scores.get(entry.niche) ?? { score: 0, hits: [] };
      current.score += weight * entry.stems.length;
      current.hits.push(`'${entry.phrase}' in ${field}`);
      scores.set(entry.niche, current);
    }
  }
  let best: { niche: Niche; score: number; hits: string[] } | undefined;
  for (const niche of NICHES) {
    const s = scores.get(niche);
    if (s && (!best || s.score > best.score)) best = { niche, ...s };
  }
  if (!best)
    return { niche: DEFAULT_NICHE, reason: `no niche vocabulary matched; default '${DEFAULT_NICHE}'` };
  return { niche: best.niche, reason: `matched ${best.hits.join(', ')}` };
}
