// The natural English voices: CMU's flite voices and festival's HTS voice, far easier to understand than
// espeak-ng's formant synthesis (docs/voices.md has the measurements). They are the English defaults; every
// other language keeps espeak-ng.
import type { Gender } from './espeak-voice-list.ts';

export type NaturalEngine = 'flite' | 'festival';

export interface NaturalVoice {
  /** Stable id, e.g. "flite:rms". */
  id: string;
  engine: NaturalEngine;
  /** The engine's name for it: flite's `-voice`, festival's `voice_<name>`. */
  engineVoice: string;
  gender: Gender;
  /** The espeak-ng dialect the voice speaks; its voices are listed after this one. */
  locale: string;
  name: string;
  note: string;
}

/**
 * Best first within each gender: the first installed voice of a gender is the default for `voice_gender`
 * (bench/speech/local-voices.ts measures the order).
 */
export const NATURAL_ENGLISH_VOICES: readonly NaturalVoice[] = [
  {
    id: 'flite:rms',
    engine: 'flite',
    engineVoice: 'rms',
    gender: 'male',
    locale: 'en-us',
    name: 'English (America), male, CMU RMS',
    note: 'flite statistical (clustergen) voice, natural; default male English voice',
  },
  {
    id: 'festival:slt-hts',
    engine: 'festival',
    engineVoice: 'cmu_us_slt_arctic_hts',
    gender: 'female',
    locale: 'en-us',
    name: 'English (America), female, CMU SLT (HTS)',
    note: 'festival HTS voice, smooth and natural; default female English voice; festival starts once per sentence (about 0.4 CPU-s)',
  },
  {
    id: 'flite:slt',
    engine: 'flite',
    engineVoice: 'slt',
    gender: 'female',
    locale: 'en-us',
    name: 'English (America), female, CMU SLT',
    note: 'flite statistical (clustergen) voice, natural but a little buzzy',
  },
  {
    id: 'flite:kal16',
    engine: 'flite',
    engineVoice: 'kal16',
    gender: 'male',
    locale: 'en-us',
    name: 'English (America), male, CMU KAL',
    note: 'flite diphone voice, clear but flat',
  },
  {
    id: 'flite:awb',
    engine: 'flite',
    engineVoice: 'awb',
    gender: 'male',
    locale: 'en-gb-scotland',
    name: 'English (Scotland), male, CMU AWB',
    note: 'flite statistical (clustergen) voice with a Scottish accent',
  },
];

/** The voices whose engine voice is installed, in table order. */
export function installedNaturalVoices(installed: Record<NaturalEngine, readonly string[]>): NaturalVoice[] {
  return NATURAL_ENGLISH_VOICES.filter((v) => installed[v.engine].includes(v.engineVoice));
}
