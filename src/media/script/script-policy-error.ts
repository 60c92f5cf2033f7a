// The error a writer raises when a kit's rules leave nothing of a script, apart from the rules (and their
// language library) so that modules naming it load nothing heavy.
import type { FigureKind } from './figures.ts';

export type RuleBreak =
  { rule: 'figure'; text: string; kind: FigureKind } | { rule: 'banned_topic'; topic: string; text: string };

export interface DroppedSentence {
  sentence: string;
  breaks: RuleBreak[];
}

/** Raised when nothing of a generated script is left once the sentences that break the kit's rules are out. */
export class ScriptPolicyError extends Error {
  constructor(readonly dropped: DroppedSentence[]) {
    const reasons = [...new Set(dropped.flatMap((d) => d.breaks.map(describeBreak)))].slice(0, 5);
    super(
      `Every sentence written from this brief breaks the brand kit's rules (${reasons.join('; ')}). ` +
        "Rephrase the brief, add the figures to the kit's proof_points, or send the script to narrate.",
    );
    this.name = 'ScriptPolicyError';
  }
}

export function describeBreak(b: RuleBreak): string {
  return b.rule === 'figure'
    ? `states "${b.text}", which no proof point holds`
    : `mentions the banned topic "${b.topic}"`;
}
