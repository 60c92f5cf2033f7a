// Which hook formats (hooks/hook-formats.ts) suit a brand's tone, best first: an authoritative brand leads
// with counts and how-tos, a provocative one with contrarian takes, a warm one with stories. A brand with
// several tones blends their lists, the first tone counting most; the plan rotates through the blend.
import type { Tone } from '../../brand/profile/tones.ts';
import { HOOK_FORMATS, type HookFormat } from '../hooks/hook-formats.ts';

export const TONE_HOOK_FORMATS: Readonly<Record<Tone, readonly [HookFormat, HookFormat, HookFormat]>> = {
  authoritative: ['number', 'how_to', 'bold_claim'],
  friendly: ['question', 'how_to', 'story'],
  provocative: ['contrarian', 'bold_claim', 'warning'],
  technical: ['how_to', 'number', 'before_after'],
  playful: ['question', 'story', 'before_after'],
  professional: ['number', 'how_to', 'question'],
  trustworthy: ['warning', 'how_to', 'number'],
  warm: ['story', 'question', 'before_after'],
  caring: ['story', 'warning', 'how_to'],
  inspiring: ['before_after', 'story', 'bold_claim'],
  energetic: ['bold_claim', 'number', 'warning'],
  calm: ['question', 'how_to', 'story'],
  luxurious: ['story', 'before_after', 'bold_claim'],
  innovative: ['before_after', 'contrarian', 'question'],
};

/** For a brand whose tones are none of the table's. */
export const NEUTRAL_HOOK_FORMATS: readonly HookFormat[] = ['question', 'how_to', 'number'];

/** How many formats the plan rotates through. */
const ROTATION = 3;

export interface FormatChoice {
  format: HookFormat;
  /** The brand's first tone that lists this format, for the rationale; undefined for the neutral list. */
  tone: string | undefined;
}

/**
 * The brand's formats, best first: each tone gives its formats 3, 2 and 1 points, divided by the tone's
 * position (the first tone counts fully, the second half); ties follow HOOK_FORMATS' order.
 */
export function hookFormatsForTones(tones: readonly string[]): FormatChoice[] {
  const points = new Map<HookFormat, { score: number; tone: string }>();
  tones.forEach((tone, position) => {
    const formats = TONE_HOOK_FORMATS[tone as Tone] as readonly HookFormat[] | undefined;
    formats?.forEach((format, rank) => {
      const add = (formats.length - rank) / (position + 1);
      const held = points.get(format);
      points.set(format, { score: (held?.score ?? 0) + add, tone: held?.tone ?? tone });
    });
  });
  if (points.size === 0) return NEUTRAL_HOOK_FORMATS.map((format) => ({ format, tone: undefined }));
  return [...points]
    .sort(([a, x], [b, y]) => y.score - x.score || HOOK_FORMATS.indexOf(a) - HOOK_FORMATS.indexOf(b))
    .slice(0, ROTATION)
    .map(([format, { tone }]) => ({ format, tone }));
}
