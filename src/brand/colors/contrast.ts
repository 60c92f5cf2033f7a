// WCAG 2 contrast and CIEDE2000 difference, from culori rather than re-derived here.
import { differenceCiede2000, wcagContrast } from 'culori';
import { parseColor } from './color-value.ts';

/** WCAG 2 AA for normal text: every derived text colour meets this against what it sits on. */
export const MIN_TEXT_CONTRAST = 4.5;

/** WCAG 2 contrast ratio of two CSS colours, 1–21. */
export function contrastRatio(a: string, b: string): number {
  return wcagContrast(parseColor(a), parseColor(b));
}

const ciede2000 = differenceCiede2000();

/** CIEDE2000 colour difference of two CSS colours (0 identical, about 1 just noticeable, 100 black to white). */
export function deltaE2000(a: string, b: string): number {
  return ciede2000(parseColor(a), parseColor(b));
}
