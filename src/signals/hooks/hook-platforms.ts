// The platforms a hook can be written for (spec 1 §2.8's platform values plus spec 2's proforum) and the
// length that fits each: a hook is spoken or read before the viewer decides to stay, so its length is the
// platform's first glance, not its post limit.

export const HOOK_PLATFORMS = [
  'shortsite',
  'vidsite_shorts',
  'facesite_reels',
  'photosite',
  'vidsite',
  'facesite',
  'microsite',
  'microsite_x',
  'proforum',
] as const;
export type HookPlatform = (typeof HOOK_PLATFORMS)[number];

export const DEFAULT_HOOK_PLATFORM: HookPlatform = 'shortsite';

export interface LengthProfile {
  /** The ideal length in words, inclusive: a hook inside it scores full marks for length. */
  minWords: number;
  maxWords: number;
  /** Past this many characters the hook is cut off where it is shown: it scores nothing for length. */
  maxChars: number;
  /** Why these numbers, for the docs. */
  basis: string;
}

// Speech runs at about 2.5-3 words a second, so a vertical video's 3-second hook holds about 8 words.
const VERTICAL_VIDEO: LengthProfile = {
  minWords: 5,
  maxWords: 10,
  maxChars: 90,
  basis: 'said in the first 3 seconds of a vertical video and readable as one caption',
};

export const LENGTH_PROFILES: Readonly<Record<HookPlatform, LengthProfile>> = {
  shortsite: VERTICAL_VIDEO,
  vidsite_shorts: VERTICAL_VIDEO,
  facesite_reels: VERTICAL_VIDEO,
  photosite: VERTICAL_VIDEO,
  vidsite: {
    minWords: 6,
    maxWords: 12,
    maxChars: 100,
    basis: 'a long-form video title and its spoken opening; titles stop at 100 characters',
  },
  facesite: {
    minWords: 6,
    maxWords: 14,
    maxChars: 125,
    basis: 'the first line of a feed post; about 125 characters show before "See more"',
  },
  microsite: {
    minWords: 6,
    maxWords: 18,
    maxChars: 280,
    basis: 'the opening line of a short post; a post holds 280 characters',
  },
  microsite_x: {
    minWords: 6,
    maxWords: 18,
    maxChars: 280,
    basis: 'the opening line of a short post; a post holds 280 characters',
  },
  proforum: {
    minWords: 8,
    maxWords: 18,
    maxChars: 140,
    basis: 'the first line of a professional post; about 140 characters show before "see more" on a phone',
  },
};
