// Scores candidate hooks with the one model, drops near-duplicates (the lower-scoring of two alike), and picks
// `count`: first the best hook of each format, in score order, so a short list shows different formats; then
// the best of the rest. The answer is ranked best first.
import { HOOK_FORMATS, type HookCandidate, type ScoredHook } from './hook-formats.ts';
import type { HookPlatform } from './hook-platforms.ts';
import { scoreHook } from './hook-scorer.ts';
import { NearDuplicateFilter } from './near-duplicates.ts';

export interface RankOptions {
  count: number;
  platform: HookPlatform;
  keyPhrase: string;
  /** The topic as sent: its words are left out when hooks are compared. */
  topic: string;
  /** Hooks already chosen: new ones must not repeat them, and they count towards `count`. */
  chosen?: readonly ScoredHook[];
}

export function byRank(a: ScoredHook, b: ScoredHook): number {
  return (
    b.score - a.score ||
    HOOK_FORMATS.indexOf(a.format) - HOOK_FORMATS.indexOf(b.format) ||
    a.text.localeCompare(b.text)
  );
}

export function scoreCandidates(
  candidates: readonly HookCandidate[],
  platform: HookPlatform,
  keyPhrase: string,
): ScoredHook[] {
  return candidates.map((c) => {
    const { score, reasons } = scoreHook(c.text, { platform, keyPhrase });
    return { text: c.text, format: c.format, score, reasons };
  });
}

export function rankHooks(candidates: readonly HookCandidate[], options: RankOptions): ScoredHook[] {
  const chosen = [...(options.chosen ?? [])];
  const filter = new NearDuplicateFilter(options.topic);
  for (const hook of chosen) filter.admit(hook.text);
  const distinct = scoreCandidates(candidates, options.platform, options.keyPhrase)
    .sort(byRank)
    .filter((hook) => filter.admit(hook.text));
  const wanted = Math.max(0, options.count - chosen.length);
  const picked: ScoredHook[] = [];
  const formats = new Set(chosen.map((h) => h.format));
  for (const hook of distinct) {
    if (picked.length === wanted) break;
    if (formats.has(hook.format)) continue;
    formats.add(hook.format);
    picked.push(hook);
  }
  for (const hook of distinct) {
    if (picked.length === wanted) break;
    if (!picked.includes(hook)) picked.push(hook);
  }
  return [...chosen, ...picked].sort(byRank);
}
