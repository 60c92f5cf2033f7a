// The hook formats a generated hook belongs to (spec 2 §2.2 leaves them open; docs/signals.md lists them).
// The local generator fills each one from the topic; an LLM is asked to label its hooks with one of them.

export const HOOK_FORMATS = [
  'question',
  'bold_claim',
  'number',
  'story',
  'warning',
  'contrarian',
  'how_to',
  'before_after',
] as const;
export type HookFormat = (typeof HOOK_FORMATS)[number];

/** What each format does, in words an LLM prompt and the docs can share. */
export const HOOK_FORMAT_GUIDE: Readonly<Record<HookFormat, string>> = {
  question: 'asks the viewer a question they want answered',
  bold_claim: 'makes a confident statement about the topic (an opinion, never an invented fact)',
  number: 'promises a small, structural count of items ("3 things", "5 steps"), never a statistic',
  story: 'opens a story the viewer wants to see finished',
  warning: 'tells the viewer to stop or wait before acting',
  contrarian: 'challenges the usual take on the topic',
  how_to: 'promises a way to do or understand something',
  before_after: 'contrasts the viewer before and after watching',
};

/** A hook before scoring: its text and the format it was written in. */
export interface HookCandidate {
  text: string;
  format: HookFormat;
}

/** A hook as the API answers it (data.hooks[]). */
export interface ScoredHook extends HookCandidate {
  /** 0-1, the weighted sum of the scoring model (hook-score-weights.ts). */
  score: number;
  /** What scored, strongest signal first. */
  reasons: string[];
}
