// The rules a generated script follows under a brand kit, checked sentence by sentence after writing: it states
// no figure that is not in one of the kit's proof points (same kind and value: "forty percent" is "40%", "three
// times" is "3x", "$2k" is "$2,000"), and it names none of the kit's banned topics. A sentence that breaks a
// rule is dropped; the writers first try to avoid such sentences (other wording, or the LLM rewriting them).
// A script the user sent is narrated word for word and never passes through here.
import { BannedTopics } from './banned-topics.ts';
import type { ScriptBrandContext } from './brand-context.ts';
import { findFigures, maskSpans, type Figure, type FigureKind } from './figures.ts';
import { splitSentences } from './sentences.ts';
import {
  describeBreak,
  ScriptPolicyError,
  type DroppedSentence,
  type RuleBreak,
} from './script-policy-error.ts';

export { describeBreak, ScriptPolicyError, type DroppedSentence, type RuleBreak };

export interface AllowedFigure {
  kind: FigureKind;
  values: number[];
  currency?: string;
}

export interface ScriptRules {
  allowedFigures: AllowedFigure[];
  bannedTopics: BannedTopics;
  /** Names that state no figure (the brand name, its website: "Studio 54", "Three Bears"), matched whole. */
  names: RegExp[];
  language: string;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The figures a text may repeat because it states them itself (proof points, a script the user sent). */
export function figuresOf(texts: readonly string[]): AllowedFigure[] {
  return texts.flatMap((t) =>
    findFigures(t).map((f) => ({
      kind: f.kind,
      values: f.values,
      currency: f.currency,
    })),
  );
}

/** The rules under a kit; none without one (no kit, no policing: the writers behave as before). */
export function scriptRulesFor(
  context: ScriptBrandContext | undefined,
  options: { language: string; names?: ReadonlyArray<string | undefined> },
): ScriptRules | undefined {
  if (!context) return undefined;
  const names = (options.names ?? [])
    .map((n) => n?.trim())
    .filter((n): n is string => !!n)
    .map((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(n)}(?![\\p{L}\\p{N}])`, 'giu'));
  return {
    allowedFigures: figuresOf(context.proofPoints.map((p) => p.claim)),
    bannedTopics: new BannedTopics(context.bannedTopics),
    names,
    language: options.language,
  };
}

/** The same rules, also allowing the figures of the given texts. */
export function allowingFiguresOf(rules: ScriptRules, texts: readonly string[]): ScriptRules {
  return {
    ...rules,
    allowedFigures: [...rules.allowedFigures, ...figuresOf(texts)],
  };
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function isAllowed(figure: Figure, allowed: readonly AllowedFigure[]): boolean {
  return allowed.some(
    (a) =>
      a.kind === figure.kind &&
      (a.currency === undefined || figure.currency === undefined || a.currency === figure.currency) &&
      a.values.some((v) => figure.values.some((w) => close(v, w))),
  );
}

/** What in this text breaks the rules; `extra` allows further figures (a writer's own list count). */
export function ruleBreaks(
  text: string,
  rules: ScriptRules,
  extra: readonly AllowedFigure[] = [],
): RuleBreak[] {
  const allowed = extra.length > 0 ? [...rules.allowedFigures, ...extra] : rules.allowedFigures;
  const figures = findFigures(maskSpans(text, rules.names), {
    language: rules.language,
  })
    .filter((f) => !isAllowed(f, allowed))
    .map((f): RuleBreak => ({
      rule: 'figure',
      text: text.slice(f.start, f.end).trim(),
      kind: f.kind,
    }));
  const topics = rules.bannedTopics.findAll(text).map((h): RuleBreak => ({
    rule: 'banned_topic',
    topic: h.topic,
    text: h.text,
  }));
  return [...figures, ...topics];
}

/**
 * The script without the sentences that break the rules; lines keep their breaks, emptied lines go. Every
 * dropped sentence is reported with what it broke.
 */
export function enforceScriptRules(
  script: string,
  rules: ScriptRules,
  extra: readonly AllowedFigure[] = [],
): { script: string; dropped: DroppedSentence[] } {
  const dropped: DroppedSentence[] = [];
  const lines = script.split(/\r?\n/).flatMap((line) => {
    const sentences = splitSentences(line, rules.language);
    const kept = sentences.filter((sentence) => {
      const breaks = ruleBreaks(sentence, rules, extra);
      if (breaks.length > 0) dropped.push({ sentence, breaks });
      return breaks.length === 0;
    });
    if (kept.length === sentences.length) return line.trim() ? [line.trim()] : [];
    return kept.length > 0 ? [kept.join(' ')] : [];
  });
  return { script: lines.join('\n'), dropped };
}

/** Hashtag words as a phrase: "#CryptoTips" → "Crypto Tips". */
function hashtagWords(tag: string): string {
  return tag.replace(/^#/, '').replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
}

/** Post text without the hashtags that name a banned topic (figures in a hashtag are names: "#Web3"). */
export function withoutBannedHashtags<T extends { description: string; hashtags: string[] }>(
  meta: T,
  rules: ScriptRules,
): T {
  const banned = new Set(meta.hashtags.filter((t) => rules.bannedTopics.find(hashtagWords(t))));
  if (banned.size === 0) return meta;
  return {
    ...meta,
    hashtags: meta.hashtags.filter((t) => !banned.has(t)),
    description: meta.description
      .split('\n')
      .map((line) =>
        line
          .split(' ')
          .filter((w) => !banned.has(w))
          .join(' '),
      )
      .join('\n')
      .trimEnd(),
  };
}
