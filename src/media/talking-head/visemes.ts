// Mouth shapes (visemes) for CMU phones, and how long each phone lasts relative to the others in its word.
import { phonemeWeight } from '../voice/phoneme-weights.ts';

export const VISEMES = ['closed', 'rest', 'slight', 'open', 'wide', 'round', 'fv'] as const;
export type Viseme = (typeof VISEMES)[number];

/** How a viseme deforms the photo's mouth; lengths are fractions of the mouth's width (outer corners). */
export interface MouthShape {
  /** Height of the lips' opening at its middle. */
  open: number;
  /** Change of the mouth's width: + spread (EE), − rounded (OO). */
  widen: number;
  /** Share of the opening made by the upper lip rising; the jaw and lower lip make the rest. */
  upperShare: number;
  /** How much of the opening the upper teeth fill, 0–1 (FV: all of it, the teeth rest on the lower lip). */
  teeth: number;
  /** 0 a flat lens-shaped opening, 1 a round one. */
  roundness: number;
}

// Openings of a speaking (not shouting) mouth: an "ah" opens about a fifth of the mouth's width, "ee" spreads it.
export const MOUTH_SHAPES: Record<Viseme, MouthShape> = {
  closed: { open: 0, widen: 0, upperShare: 0.3, teeth: 0, roundness: 0 },
  rest: { open: 0.03, widen: 0, upperShare: 0.3, teeth: 0.5, roundness: 0 },
  slight: { open: 0.075, widen: 0.02, upperShare: 0.25, teeth: 0.55, roundness: 0 },
  open: { open: 0.22, widen: 0.03, upperShare: 0.2, teeth: 0.4, roundness: 0.2 },
  wide: { open: 0.12, widen: 0.08, upperShare: 0.25, teeth: 0.8, roundness: 0 },
  round: { open: 0.14, widen: -0.22, upperShare: 0.25, teeth: 0.15, roundness: 1 },
  fv: { open: 0.05, widen: 0.02, upperShare: 0.1, teeth: 1, roundness: 0 },
};

// prettier-ignore
const PHONE_VISEME: Record<string, Viseme> = {
  M: 'closed', B: 'closed', P: 'closed',
  F: 'fv', V: 'fv',
  AA: 'open', AE: 'open', AH: 'open', AY: 'open', AW: 'open',
  EH: 'wide', EY: 'wide', IH: 'wide', IY: 'wide', Y: 'wide',
  AO: 'round', OW: 'round', OY: 'round', UH: 'round', UW: 'round', W: 'round', ER: 'round', R: 'round',
  SH: 'round', ZH: 'round', CH: 'round', JH: 'round',
  T: 'slight', D: 'slight', N: 'slight', L: 'slight', S: 'slight', Z: 'slight', TH: 'slight', DH: 'slight',
  K: 'slight', G: 'slight', NG: 'slight', HH: 'slight',
};

const VOWELS = new Set([
  'AA',
  'AE',
  'AH',
  'AO',
  'AW',
  'AY',
  'EH',
  'ER',
  'EY',
  'IH',
  'IY',
  'OW',
  'OY',
  'UH',
  'UW',
]);
/** Vowels espeak writes long (":") or as diphthongs; the rest are its short vowels. */
const LONG_VOWELS = new Set(['AA', 'AO', 'ER', 'IY', 'UW', 'AW', 'AY', 'EY', 'OW', 'OY']);

function splitPhone(phone: string): { base: string; stress: string } {
  const match = /^([A-Z]+)([012]?)$/.exec(phone.toUpperCase());
  return { base: match?.[1] ?? phone.toUpperCase(), stress: match?.[2] ?? '' };
}

/** The viseme of one CMU phone ("AA1", "t"); an unstressed "ah" (schwa) barely opens the mouth. */
export function phoneViseme(phone: string): Viseme {
  const { base, stress } = splitPhone(phone);
  if (base === 'AH' && stress === '0') return 'slight';
  return PHONE_VISEME[base] ?? 'slight';
}

/**
 * Relative duration of one CMU phone within its word. phoneme-weights.ts holds durations fitted on espeak's
 * phoneme mnemonics (vowel, long vowel, stressed, consonant), so the phone is described to it as the mnemonic of
 * its class: "'a:" for a stressed long vowel, "t" for any consonant.
 */
export function phoneWeight(phone: string): number {
  const { base, stress } = splitPhone(phone);
  if (!VOWELS.has(base)) return phonemeWeight('t');
  const mark = stress === '1' ? "'" : stress === '2' ? ',' : '';
  return phonemeWeight(`${mark}a${LONG_VOWELS.has(base) ? ':' : ''}`);
}
