// Which music suits which footage niche: every clip_type maps to a top-level folder and a mood, and a
// bed is picked among those made for both.

import { NICHES, type Niche } from '../footage/niches.ts';
import type { Mood } from './arrangement.ts';
import { seedMusicRecipes, type MusicBedRecipe } from './beds.ts';

export interface MusicFolder {
  /** Top-level clip_type folder, e.g. 'finance' for 'finance/crypto' and for 'default/money'. */
  folder: string;
  mood: Mood;
}

// The legacy default/* clip types belong to the folder whose content they show.
const DEFAULT_FOLDERS: Record<string, string> = {
  'default/money': 'finance',
  'default/cars': 'automotive',
  'default/jets': 'luxury',
  'default/houses': 'realestate',
};

const FOLDER_MOOD: Record<string, Mood> = {
  premium: 'corporate',
  luxury: 'dreamy',
  motivational: 'uplifting',
  luxury_woman: 'dreamy',
  tech: 'corporate',
  business: 'corporate',
  finance: 'corporate',
  travel: 'uplifting',
  health: 'uplifting',
  ecommerce: 'corporate',
  mindset: 'uplifting',
  spiritual: 'calm',
  food: 'uplifting',
  urban: 'energetic',
  realestate: 'corporate',
  automotive: 'energetic',
  nature: 'calm',
  abstract: 'dreamy',
  satisfying: 'calm',
  gym: 'energetic',
  Space: 'dreamy',
  tools: 'corporate',
  art: 'dreamy',
  relaxing: 'calm',
  soothing: 'calm',
  useful_hacks: 'uplifting',
  wood_works: 'calm',
  overlays: 'dreamy',
  colors: 'dreamy',
  places: 'uplifting',
  events: 'uplifting',
};

// Niches whose mood differs from their folder's.
const NICHE_MOOD: Partial<Record<Niche, Mood>> = {
  'tech/cyber': 'dark',
  'tech/futurism': 'energetic',
  'tech/ai': 'energetic',
  'business/hustle': 'energetic',
  'business/success': 'uplifting',
  'business/entrepreneur': 'uplifting',
  'finance/crypto': 'energetic',
  'finance/trading': 'energetic',
  'travel/adventure': 'energetic',
  'health/fitness': 'energetic',
  'health/yoga': 'calm',
  'health/mental': 'calm',
  'mindset/stoic': 'dark',
  'mindset/discipline': 'energetic',
  'spiritual/energy': 'dreamy',
  'spiritual/dark_aesthetic': 'dark',
  'urban/architecture': 'corporate',
  'urban/aerial': 'uplifting',
  'realestate/luxury': 'dreamy',
  'automotive/driving': 'energetic',
  'default/cars': 'energetic',
  'nature/sunset': 'dreamy',
  'overlays/glitches': 'energetic',
  'overlays/vj_loops': 'energetic',
  'colors/black': 'dark',
  'colors/neon': 'energetic',
  'colors/gold': 'dreamy',
  'places/tokyo': 'energetic',
  'events/halloween': 'dark',
};

/** The music folder and mood for a clip_type. */
export function musicFolderFor(niche: Niche): MusicFolder {
  const folder = DEFAULT_FOLDERS[niche] ?? niche.split('/')[0]!;
  const mood = NICHE_MOOD[niche] ?? FOLDER_MOOD[folder];
  if (mood === undefined) throw new Error(`no music mood for niche ${niche}`);
  return { folder, mood };
}

function stableIndex(seed: number | string, count: number): number {
  let h = 0x811c9dc5;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h % count;
}

/**
 * Picks a bed for a niche, the same one for the same seed: among beds of the niche's mood made for its
 * folder, else any bed of that mood, else any bed made for the folder, else any bed.
 */
export function pickMusic(
  niche: Niche,
  seed: number | string,
  beds: MusicBedRecipe[] = seedMusicRecipes(),
): MusicBedRecipe {
  if (beds.length === 0) throw new Error('no music beds to pick from');
  const { folder, mood } = musicFolderFor(niche);
  const tiers = [
    beds.filter((b) => b.mood === mood && b.folders.includes(folder)),
    beds.filter((b) => b.mood === mood),
    beds.filter((b) => b.folders.includes(folder)),
    beds,
  ];
  const pool = tiers.find((t) => t.length > 0)!;
  return pool[stableIndex(seed, pool.length)]!;
}

/** Every top-level folder a clip_type maps to, for checking that the beds cover them all. */
export function allMusicFolders(): string[] {
  return [...new Set(NICHES.map((n) => musicFolderFor(n).folder))];
}
