// Shapes of the narrative-pattern library the local writer composes scripts from.
import type { ContentStyle } from '../writer.ts';

/**
 * A sentence template, optionally only for some styles (others never use it) and with an extra preference
 * penalty for lines meant only as a fallback, such as very short ones for tight budgets.
 */
export type LineSpec = string | { styles?: readonly ContentStyle[]; text: string; penalty?: number };

/** One step of a narrative: several interchangeable lines. keep 0 = always said; higher = dropped sooner. */
export interface Beat {
  keep: number;
  lines: readonly LineSpec[];
}

export interface PurposeLibrary {
  beats: Readonly<Record<string, Beat>>;
  /** Orders of beat ids. "opening" is the natural first line; "points" is where the brief's own points go. */
  patterns: readonly (readonly string[])[];
  /** Lines that carry one of the brief's points: a clause ("it compounds monthly") or a phrase ("the rule of 72"). */
  pointClause: readonly LineSpec[];
  pointPhrase: readonly LineSpec[];
  /** Closing lines naming the website, used when there is no call to action. */
  signoff: readonly LineSpec[];
}

export function styled(styles: readonly ContentStyle[], ...texts: string[]): LineSpec[] {
  return texts.map((text) => ({ styles, text }));
}
