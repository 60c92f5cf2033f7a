// The default script writer: builds a real narration from the brief's own words and a library of
// narrative patterns per content purpose and style, sized to the word budget. English only.
import { scriptCta, scriptLanguage, styleForTone } from './brand-context.ts';
import { analyzeBrief, type BriefAnalysis } from './brief-analysis.ts';
import { checkSentScript, countWords, scriptBudget, ScriptTooLongError } from './budget.ts';
import { candidate, diversify, fitToBudget, type BeatOptions, type LineRule } from './compose.ts';
import { capitalize, isPluralPhrase, numberWord, pluralize, verbForm, withArticle } from './english.ts';
import { hooksFor } from './hooks.ts';
import { LIBRARIES } from './patterns/index.ts';
import type { LineSpec, PurposeLibrary } from './patterns/types.ts';
import { hashString, seededRandom, shuffled } from './seeded.ts';
import {
  enforceScriptRules,
  ruleBreaks,
  ScriptPolicyError,
  scriptRulesFor,
  type ScriptRules,
} from './script-rules.ts';
import { splitSentences } from './sentences.ts';
import { applyRhythm, ordinals, styleFromTone } from './styles.ts';
import { DEFERRED, fillTemplate, specificity, type Slots } from './template.ts';
import { displayWebsite, writeTitleAndDescription } from './title-description.ts';
import type {
  Brand,
  ContentPurpose,
  ContentStyle,
  ScriptInput,
  ScriptWriter,
  WrittenScript,
} from './writer.ts';

export { splitSentences } from './sentences.ts';
export { writeTitleAndDescription } from './title-description.ts';

/** Raised when a script must be written in a language the local writer does not write. */
export class ScriptLanguageUnsupportedError extends Error {
  readonly language: string;
  readonly supported: readonly string[] = ['en'];
  constructor(language: string) {
    super(
      `The local script writer writes English ("en") only, not "${language}". ` +
        'Send a script in that language, or configure an LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL) to write it.',
    );
    this.name = 'ScriptLanguageUnsupportedError';
    this.language = language;
  }
}

/** The primary subtag of a language code, lower-cased: "en-US" → "en". */
export function languageCode(language: string | undefined): string {
  return (language ?? 'en').trim().toLowerCase().split(/[-_]/)[0] || 'en';
}

const MAX_BRIEF_POINTS = 6;

/** Core beats (keep 0) are left out only when nothing else fits a short budget. */
function omitPenalty(keep: number): number {
  return keep === 0 ? 60 : (10 - keep) * 2;
}

/** Figures that read as a result ("40%", "$2M", "3x"), not years or counts. */
function impactNumber(numbers: readonly string[]): string | undefined {
  return numbers.find((n) => /%|percent|[$€£]|\dx$|\d[km]$/i.test(n));
}

export function buildSlots(
  a: BriefAnalysis,
  brand: Brand | undefined,
  durationSec: number,
  cta?: string,
): Slots {
  const plural = a.topicPlural;
  const product = a.productName ?? brand?.name;
  const website = brand?.websiteUrl ? displayWebsite(brand.websiteUrl) : undefined;
  const object =
    a.frame !== 'howto' && a.object && a.object.toLowerCase() !== a.topic.toLowerCase()
      ? a.object
      : undefined;
  // "writing a resume" is something you do; "compound interest" is something you understand.
  const skill = verbForm(a.topic.split(' ')[0] ?? '')?.form === 'gerund';
  return {
    topic: a.topic,
    /** The topic when it is not the product itself (a sales video about a subject, not a named product). */
    subject: a.frame === 'product' ? undefined : a.topic,
    concept: skill ? undefined : a.topic,
    skill: skill ? a.topic : undefined,
    question: a.question,
    claim: a.claim,
    result: a.result,
    action: a.action,
    object,
    objectIs: object ? (isPluralPhrase(object) ? 'are' : 'is') : undefined,
    objectSelf: object ? (isPluralPhrase(object) ? 'themselves' : 'itself') : undefined,
    means: a.means,
    audience: a.audience,
    product,
    category: a.category,
    aCategory: a.category ? withArticle(a.category) : undefined,
    categories: a.category ? pluralize(a.category) : undefined,
    brand: brand?.name,
    /** The company behind a named product, when it is not the product itself. */
    maker:
      brand?.name && a.productName && brand.name.toLowerCase() !== a.productName.toLowerCase()
        ? brand.name
        : undefined,
    cta,
    points: a.points.length > 0 ? 'yes' : undefined,
    website,
    number: impactNumber(a.numbers),
    seconds: String(durationSec),
    is: plural ? 'are' : 'is',
    was: plural ? 'were' : 'was',
    has: plural ? 'have' : 'has',
    does: plural ? 'do' : 'does',
    it: plural ? 'they' : 'it',
    its: plural ? 'their' : 'its',
  };
}

interface Usable {
  text: string;
  styled: boolean;
  penalty: number;
}

function usable(spec: LineSpec, style: ContentStyle): Usable | undefined {
  if (typeof spec === 'string') return { text: spec, styled: false, penalty: 0 };
  if (spec.styles && !spec.styles.includes(style)) return undefined;
  return { text: spec.text, styled: spec.styles !== undefined, penalty: spec.penalty ?? 0 };
}

/** Whether a line may be said; under a brand kit, lines that break its rules are never candidates. */
type LineFilter = (text: string) => boolean;

/**
 * Fills a beat's lines for this brief; the seed orders preferences, and lines in the chosen style come first.
 * Lines the filter refuses are left out, so another wording of the beat is said instead.
 */
function beatOptions(
  id: string,
  specs: readonly LineSpec[],
  slots: Slots,
  style: ContentStyle,
  random: () => number,
  accept: LineFilter,
  omitPenalty: number | undefined,
  take: Take,
): BeatOptions {
  const seen = new Set<string>();
  const candidates = rotated(shuffled(specs, random), take.index)
    .map((spec) => usable(spec, style))
    .filter((u): u is Usable => u !== undefined)
    .map((u, rank) => ({ u, rank, text: fillTemplate(u.text, slots) }))
    .map(({ u, rank, text }) => ({
      text,
      penalty:
        u.penalty +
        rank * 0.8 +
        (u.styled ? 0 : 1.5) +
        Math.max(0, 3 - 1.5 * specificity(u.text)) +
        (text === undefined ? 0 : (take.said.get(text) ?? 0) * SAID_BY_ANOTHER_TAKE),
    }))
    .filter(
      (c): c is { text: string; penalty: number } =>
        c.text !== undefined && !seen.has(c.text) && seen.add(c.text) !== undefined && accept(c.text),
    )
    .map((c) => candidate(c.text, c.penalty));
  return { id, candidates, omitPenalty };
}

/** Which take of a brief this is, and how often the takes before it said each line (they are avoided). */
interface Take {
  index: number;
  said: Map<string, number>;
}

/** Per earlier take saying it: enough to prefer any fresh wording of a beat over a line already said. */
const SAID_BY_ANOTHER_TAKE = 6;

/** The list started `by` places later (wrapping), so each take of a brief prefers another wording. */
function rotated<T>(items: T[], by: number): T[] {
  const k = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

interface Plan {
  beats: BeatOptions[];
  hookIndex: number;
}

function planBeats(
  lib: PurposeLibrary,
  a: BriefAnalysis,
  slots: Slots,
  input: ScriptInput,
  purpose: ContentPurpose,
  style: ContentStyle,
  random: () => number,
  accept: LineFilter,
  take: Take,
): Plan {
  const pattern =
    lib.patterns[(Math.floor(random() * lib.patterns.length) + take.index) % lib.patterns.length]!;
  const beats: BeatOptions[] = [];
  let hookIndex = -1;
  for (const id of pattern) {
    if (id === 'opening') {
      if (input.includeHook === true) {
        // The hook is always the very first line, wherever the pattern puts its natural opening.
        hookIndex = 0;
        beats.unshift(
          beatOptions(
            'hook',
            hooksFor(purpose).map((h) => h.text),
            slots,
            style,
            random,
            accept,
            undefined,
            take,
          ),
        );
      } else if (input.includeHook === undefined) {
        beats.push(
          beatOptions(
            'opening',
            lib.beats.opening?.lines ?? [],
            slots,
            style,
            random,
            accept,
            undefined,
            take,
          ),
        );
      }
      continue;
    }
    if (id === 'points') {
      for (const [i, point] of a.points.slice(0, MAX_BRIEF_POINTS).entries()) {
        const specs = point.kind === 'clause' ? lib.pointClause : lib.pointPhrase;
        beats.push(
          beatOptions(
            `point${i}`,
            specs,
            { ...slots, point: point.text },
            style,
            random,
            accept,
            22 - i,
            take,
          ),
        );
      }
      continue;
    }
    const beat = lib.beats[id];
    if (!beat) throw new Error(`pattern names an unknown beat "${id}"`);
    // With no call to action and no website, the natural closing line is what ends the script.
    const mustSay = id === 'close' && !input.cta && !slots.website;
    beats.push(
      beatOptions(
        id,
        beat.lines,
        slots,
        style,
        random,
        accept,
        mustSay ? undefined : omitPenalty(beat.keep),
        take,
      ),
    );
  }
  if (!input.cta && slots.website)
    beats.push(beatOptions('signoff', lib.signoff, slots, style, random, accept, undefined, take));
  return { beats: beats.filter((b) => b.candidates.length > 0), hookIndex };
}

/**
 * The rules every script follows beyond its length: the subject is named at least once, and the brief's
 * claim is said at most twice, never in two lines running. State bits: named, said-last-line, count (0–2).
 */
function scriptRule(subject: string, claim: string | undefined): LineRule {
  const seen = new Map<string, { names: boolean; hasClaim: boolean }>();
  const read = (text: string): { names: boolean; hasClaim: boolean } => {
    let r = seen.get(text);
    if (!r) {
      const lower = text.toLowerCase();
      r = { names: lower.includes(subject), hasClaim: claim !== undefined && lower.includes(claim) };
      seen.set(text, r);
    }
    return r;
  };
  return {
    size: 12,
    initial: 0,
    step(state, text) {
      const { names, hasClaim } = read(text);
      const named = (state & 1) === 1 || names;
      const lastHadClaim = (state & 2) === 2;
      const count = state >> 2;
      if (hasClaim && (lastHadClaim || count >= 2)) return -1;
      return (named ? 1 : 0) | (hasClaim ? 2 : 0) | ((count + (hasClaim ? 1 : 0)) << 2);
    },
    accepts: (state) => (state & 1) === 1,
  };
}

function followsRule(rule: LineRule, texts: readonly string[]): boolean {
  let state = rule.initial;
  for (const text of texts) {
    state = rule.step(state, text);
    if (state < 0) return false;
  }
  return rule.accepts(state);
}

/** Fills ordinals and the count of numbered points; `count` is that number (a figure of the script's own). */
function resolveDeferred(lines: string[]): { lines: string[]; count: number } {
  const numbered = lines.filter((l) => /\{Nth\}|\{nth\}/.test(l)).length;
  const words = ordinals(numbered);
  let n = 0;
  const resolved = lines.map((line) =>
    // A lone numbered point needs no ordinal: "{Nth}, start small." → "Start small."
    (numbered === 1 ? capitalize(line.replace(/\{Nth\},?\s*/, '')) : line)
      .replace(/\{Nth\}|\{nth\}/g, (m) => {
        const w = words[n++] ?? 'Also';
        return m === '{nth}' ? w.toLowerCase() : w;
      })
      .replace(/\{Count\}/g, capitalize(numberWord(numbered)))
      .replace(/\{count\}/g, numberWord(numbered)),
  );
  return { lines: resolved, count: numbered };
}

/** The request's style, else the kit tone's, else the one the brand's free-text tone names. */
export function resolveStyle(input: ScriptInput): ContentStyle {
  return (
    input.contentStyle ??
    styleForTone(input.brandContext?.tone) ??
    styleFromTone(input.brand?.tone) ??
    'professional'
  );
}

function briefText(input: ScriptInput): string {
  return [input.topic, input.prompt].filter(Boolean).join(' \n');
}

/**
 * Writes a script from the brief; the pure core of LocalScriptWriter. Take i of a variations request writes
 * takes 0 … i−1 first (a few milliseconds each) and avoids the lines they said.
 */
export function writeLocalScript(input: ScriptInput): WrittenScript {
  if (!input.take || input.take.index === 0) return writeTake(input, { index: 0, said: new Map() });
  const said = new Map<string, number>();
  for (let index = 0; index < input.take.index; index++) writeTake(input, { index, said });
  return writeTake(input, { index: input.take.index, said });
}

/** One take; the lines it picks are counted in `take.said`. */
function writeTake(input: ScriptInput, take: Take): WrittenScript {
  const purpose = input.contentPurpose ?? 'education';
  const voiceSpeed = input.voiceSpeed ?? 1;
  if (input.script !== undefined && input.script.trim() !== '') return sentScript(input, purpose, voiceSpeed);

  const language = languageCode(scriptLanguage(input.language, input.brandContext));
  if (language !== 'en') throw new ScriptLanguageUnsupportedError(language);
  const style = resolveStyle(input);
  const rules = scriptRulesFor(input.brandContext, {
    language,
    names: [input.brand?.name, input.brand?.websiteUrl && displayWebsite(input.brand.websiteUrl)],
  });
  const budget = scriptBudget({ durationSec: input.durationSec, voiceSpeed });
  const analysis = analyzeBrief({
    prompt: input.prompt,
    topic: input.topic,
    brandName: input.brand?.name,
    productMinded: purpose === 'sales' || purpose === 'product_demo',
  });
  const cta = scriptCta(input.cta, input.brandContext);
  const slots = buildSlots(analysis, input.brand, budget.durationSec, cta);
  // Takes of one brief share the brief's seed and differ by their index (see `take`).
  const random = seededRandom(
    (input.take ? undefined : input.seed) ?? hashString(`${briefText(input)}|${purpose}|${style}`),
  );
  const ctaWords = cta ? countWords(cta) : 0;
  const target = Math.max(budget.targetWords - ctaWords, 1);

  const accept: LineFilter = rules ? (text) => ruleBreaks(text, rules).length === 0 : () => true;
  const plan = planBeats(
    LIBRARIES[purpose],
    analysis,
    slots,
    { ...input, cta },
    purpose,
    style,
    random,
    accept,
    take,
  );
  const rule = scriptRule(
    (analysis.productName ?? analysis.topic).toLowerCase(),
    analysis.claim?.toLowerCase(),
  );
  let chosen = fitToBudget(plan.beats, target, rule);
  chosen = diversify(plan.beats, chosen, target, (texts) => followsRule(rule, texts));

  const countNumbered = chosen.filter(
    (k, i) => k >= 0 && /\{[Nn]th\}/.test(plan.beats[i]!.candidates[k]!.text),
  ).length;
  if (plan.hookIndex >= 0 && countNumbered < 2)
    chosen[plan.hookIndex] = swapAwayFromCount(plan.beats[plan.hookIndex]!, chosen[plan.hookIndex]!);

  const picked = chosen
    .map((k, i) => (k >= 0 ? plan.beats[i]!.candidates[k]!.text : undefined))
    .filter((t): t is string => t !== undefined);
  for (const line of picked) take.said.set(line, (take.said.get(line) ?? 0) + 1);
  const deferred = resolveDeferred(picked);
  const styled = deferred.lines.map((line) => applyRhythm(line, style));
  const lines = rules ? keptUnderRules(styled, rules, deferred.count) : styled;
  const hook = plan.hookIndex >= 0 && chosen[plan.hookIndex]! >= 0 ? styled[0] : undefined;
  const hookUsed = hook !== undefined && lines[0] === hook ? hook : null;
  if (cta) lines.push(cta);
  const script = lines.join('\n');
  for (const line of lines)
    if ([...DEFERRED].some((m) => line.includes(`{${m}}`))) throw new Error(`unfilled marker in "${line}"`);

  const meta = writeTitleAndDescription({
    brief: briefText(input),
    analysis,
    script,
    brand: input.brand,
    contentPurpose: purpose,
    platforms: input.platforms,
  });
  return {
    script,
    sentences: splitSentences(script),
    title: meta.title,
    description: meta.description,
    hashtags: meta.hashtags,
    hookUsed,
    ctaUsed: cta ?? null,
    wordCount: countWords(script),
    writer: 'local',
  };
}

/**
 * The lines that follow the kit's rules. Candidates were already filtered, so this only catches what filling the
 * ordinals and the count could add; the count of the script's own numbered points is its own figure, not a claim.
 */
function keptUnderRules(lines: readonly string[], rules: ScriptRules, count: number): string[] {
  const { script, dropped } = enforceScriptRules(lines.join('\n'), rules, [
    { kind: 'count', values: [count] },
  ]);
  if (script.trim() === '') throw new ScriptPolicyError(dropped);
  return script.split('\n');
}

/** A number-led hook needs at least two numbered points; otherwise take the closest other hook. */
function swapAwayFromCount(beat: BeatOptions, k: number): number {
  const current = beat.candidates[k];
  if (!current || !/\{[Cc]ount\}/.test(current.text)) return k;
  let best = k;
  let bestDiff = Infinity;
  beat.candidates.forEach((c, j) => {
    const diff = Math.abs(c.words - current.words) * 10 + c.penalty;
    if (!/\{[Cc]ount\}/.test(c.text) && diff < bestDiff) {
      best = j;
      bestDiff = diff;
    }
  });
  return best;
}

function sentScript(input: ScriptInput, purpose: ContentPurpose, voiceSpeed: number): WrittenScript {
  const script = input.script!.trim();
  const check = checkSentScript(script, voiceSpeed);
  if (!check.ok) throw new ScriptTooLongError(check);
  const meta = writeTitleAndDescription({
    script,
    brief: briefText(input) || undefined,
    brand: input.brand,
    contentPurpose: purpose,
    platforms: input.platforms,
  });
  return {
    script,
    sentences: splitSentences(script),
    title: meta.title,
    description: meta.description,
    hashtags: meta.hashtags,
    hookUsed: null,
    ctaUsed: null,
    wordCount: check.words,
    writer: 'local',
  };
}

export class LocalScriptWriter implements ScriptWriter {
  async write(input: ScriptInput): Promise<WrittenScript> {
    return writeLocalScript(input);
  }
}
