// The narration voice a profile recommends, from the service's real voice catalogue (flite, festival and
// espeak-ng voices, src/media/voice/voice-catalogue.ts): a voice that speaks the site's language, its gender chosen by tone.
// Voice ids already have the `<provider>:<name>` form the spec asks for ("espeak:en-us:female-1").
import { dialectsFor, type Gender, type VoiceCatalogue } from '../../media/voice/voice-catalogue.ts';
import type { Tone } from './tones.ts';

export interface VoiceRecommendation {
  recommendation: string;
  alternatives: string[];
}

const MAX_ALTERNATIVES = 4;

/**
 * Tones that lean on warmth and reassurance (caring, calm, warm, friendly, playful, luxurious) open with a
 * female voice; the others with a male one. Only an opening choice: the alternatives offer the other
 * gender too, and the profile's voice is editable.
 */
const SOFTER: ReadonlySet<Tone> = new Set(['caring', 'calm', 'warm', 'friendly', 'playful', 'luxurious']);

export function preferredGender(tones: readonly Tone[]): Gender {
  const softer = tones.filter((t) => SOFTER.has(t)).length;
  return softer * 2 >= tones.length && tones.length > 0 ? 'female' : 'male';
}

/** The recommended voice and its alternatives for the page language; English when none speaks it. */
export function recommendVoice(
  catalogue: VoiceCatalogue,
  language: string,
  tones: readonly Tone[],
): VoiceRecommendation {
  const dialects = dialectsFor(catalogue, language);
  const chosen = dialects.length > 0 ? dialects : dialectsFor(catalogue, 'en');
  const voices = chosen.flatMap((d) => d.voices);
  // espeak's "klatt" variants are the most robotic; they go last.
  const ordered = [...voices].sort(
    (a, b) => Number(a.espeakVoice.endsWith('+klatt')) - Number(b.espeakVoice.endsWith('+klatt')),
  );
  const gender = preferredGender(tones);
  const first = ordered.find((v) => v.gender === gender) ?? ordered[0];
  if (!first) return { recommendation: '', alternatives: [] };
  const other = ordered.find((v) => v.gender !== first.gender);
  const rest = ordered.filter((v) => v !== first && v !== other);
  const alternatives = [other, ...rest]
    .filter((v) => v !== undefined)
    .slice(0, MAX_ALTERNATIVES)
    .map((v) => v.id);
  return { recommendation: first.id, alternatives };
}
