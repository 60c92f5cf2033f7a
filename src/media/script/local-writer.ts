// The default script writer, English only. It says what the brief brings (its statement, its product and
// audience, its own points, a brand kit's proof points on the topic) and frames it with an opening, a question to
// the viewer and a close; it never states what it does not know (topic-template.ts, docs/scripts.md).
import { scriptCta, scriptLanguage, styleForTone } from './brand-context.ts';
import { analyzeBrief, type BriefAnalysis } from './brief-analysis.ts';
import { checkSentScript, countWords, scriptBudget, ScriptTooLongError } from './budget.ts';
import { isPluralPhrase, pluralize, verbForm, withArticle } from './english.ts';
import { hashString, seededRandom } from './seeded.ts';
import {
  enforceScriptRules,
  ruleBreaks,
  ScriptPolicyError,
  scriptRulesFor,
  type ScriptRules,
} from './script-rules.ts';
import { splitSentences } from './sentences.ts';
import { styleFromTone } from './styles.ts';
import type { Slots } from './template.ts';
import { writeTopicTemplate } from './topic-template.ts';
import { displayWebsite, writeTitleAndDescription } from './title-description.ts';
import type {
  Brand,
  ContentPurpose,
  ContentStyle,
  ScriptInput,
  ScriptSource,
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

/** Which take of a brief this is, and how often the takes before it said each line (they are avoided). */
interface Take {
  index: number;
  said: Map<string, number>;
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
  const briefSource = { prompt: input.prompt, topic: input.topic, brandName: input.brand?.name };
  const analysis = analyzeBrief({
    ...briefSource,
    productMinded: purpose === 'sales' || purpose === 'product_demo',
  });
  const cta = scriptCta(input.cta, input.brandContext);
  const slots = buildSlots(analysis, input.brand, budget.durationSec, cta);
  // Takes of one brief share the brief's seed and differ by their index (see `take`).
  const random = seededRandom(
    (input.take ? undefined : input.seed) ?? hashString(`${briefText(input)}|${purpose}|${style}`),
  );
  const ctaWords = cta ? countWords(cta) : 0;
  // Under a brand kit, lines that break its rules are never candidates: another wording is said instead.
  const accept = rules ? (text: string) => ruleBreaks(text, rules).length === 0 : () => true;
  // A capitalized word is a product only where the brief says so ("our new app Taskly"), not in "Roman".
  const plain = analyzeBrief({ ...briefSource, productMinded: false });
  const written = writeTopicTemplate({
    analysis: plain,
    purpose,
    style,
    includeHook: input.includeHook,
    cta,
    website: slots.website,
    proofPoints: input.brandContext?.proofPoints.map((p) => p.claim) ?? [],
    maxWords: Math.max(budget.maxWords - ctaWords, 1),
    random,
    take,
    accept,
  });
  const lines = rules ? keptUnderRules(written.lines, rules) : written.lines;
  const hookUsed = written.hookUsed !== null && lines[0] === written.hookUsed ? written.hookUsed : null;
  return finish(input, plain, purpose, lines, {
    cta,
    hookUsed,
    source: written.usedMaterial ? 'material' : 'template',
    subject: written.subject,
  });
}

/** The script of the chosen lines, closed by the cta, with its title, description and hashtags. */
function finish(
  input: ScriptInput,
  analysis: BriefAnalysis,
  purpose: ContentPurpose,
  body: readonly string[],
  said: { cta: string | undefined; hookUsed: string | null; source: ScriptSource; subject?: string },
): WrittenScript {
  const { cta, hookUsed } = said;
  const lines = cta ? [...body, cta] : [...body];
  const script = lines.join('\n');

  const meta = writeTitleAndDescription({
    brief: briefText(input),
    analysis,
    script,
    brand: input.brand,
    contentPurpose: purpose,
    platforms: input.platforms,
    subject: said.subject,
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
    source: said.source,
  };
}

/** The lines that follow the kit's rules; candidates were already filtered, so this is the last check. */
function keptUnderRules(lines: readonly string[], rules: ScriptRules): string[] {
  const { script, dropped } = enforceScriptRules(lines.join('\n'), rules);
  if (script.trim() === '') throw new ScriptPolicyError(dropped);
  return script.split('\n');
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
    source: 'request',
  };
}

export class LocalScriptWriter implements ScriptWriter {
  async write(input: ScriptInput): Promise<WrittenScript> {
    return writeLocalScript(input);
  }
}
