// Reads a brief ("how compound interest grows savings", "our new app Taskly for remote teams") into the
// pieces a script is woven from: its subject, the claim it makes, who it is for, numbers and extra points.
import {
  AUXILIARIES,
  fixedCase,
  gerund,
  isDeterminer,
  isOrdinaryOpener,
  isPeopleGroup,
  isPluralPhrase,
  isPreposition,
  isPronoun,
  isStopWord,
  verbForm,
  wordNumber,
  WH_WORDS,
} from './english.ts';
import { splitSentences } from './sentences.ts';

export type BriefFrame = 'how' | 'why' | 'what' | 'howto' | 'list' | 'product' | 'statement' | 'topic';

/** An extra point the brief asks to make: a full clause ("it compounds monthly") or a phrase ("the rule of 72"). */
export interface BriefPoint {
  text: string;
  kind: 'clause' | 'phrase';
}

export interface BriefAnalysis {
  frame: BriefFrame;
  /** The brief's first sentence, cleaned of requests like "make a video about". */
  headline: string;
  /** What the brief is about, as a noun phrase that reads well anywhere: "compound interest", "writing a resume". */
  topic: string;
  topicPlural: boolean;
  /** The brief as an embedded question: "how compound interest grows savings". */
  question?: string;
  /** The brief as a statement: "compound interest grows savings". */
  claim?: string;
  /** The claim when it reports an outcome in the past tense: "Acme cut support costs by 40%". */
  result?: string;
  /** What a how-to brief teaches: "write a resume". */
  action?: string;
  /** What the claim acts on: "savings". */
  object?: string;
  /** The means in the claim: "automation" in "cut costs with automation". */
  means?: string;
  /** Who the brief is for: "remote teams", "athletes". */
  audience?: string;
  /** A product or company the brief names: "Taskly". */
  productName?: string;
  /** What kind of thing the product is: "project-management app". */
  category?: string;
  listCount?: number;
  listNoun?: string;
  /** Figures from the brief, as written: "40%", "$100", "2024". */
  numbers: string[];
  /** Content words of the brief in order of appearance, cased as they should be printed. */
  keywords: string[];
  points: BriefPoint[];
}

export interface BriefSource {
  prompt?: string;
  topic?: string;
  brandName?: string;
  /** Sales and product briefs read a capitalized subject as the product's name. */
  productMinded?: boolean;
}

const META_PREFIX = new RegExp(
  [
    String.raw`^(?:please\s+)?(?:can you\s+)?(?:make|create|write|generate|produce|give me|do|film|record)\s+(?:me\s+|us\s+)?(?:a|an|one|some)?\s*` +
      String.raw`(?:(?:short|quick|brief|fun|simple|engaging|funny|catchy|\d+[- ]?(?:second|sec|s|minute|min))[- ]*)*` +
      String.raw`(?:[\w-]+\s+)?(?:video|reel|short|clip|script|post|tiktok|explainer|story|ad|promo)s?\s+` +
      String.raw`(?:about|on|explaining|that explains|showing|that shows|covering|introducing|announcing|promoting|for)\s+`,
    String.raw`^(?:please\s+)?(?:explain|describe|teach|cover|show|discuss|tell (?:people|viewers|everyone|me|us) about|talk about|introduce|announce|promote|present|pitch|showcase|demo)\s+`,
    String.raw`^(?:a|the)?\s*(?:video|reel|short|clip|script|post|story)\s+(?:about|on)\s+`,
  ].join('|'),
  'i',
);
const POINT_PREFIX =
  /^(?:please\s+)?(?:(?:also|and)\s+)?(?:mention|explain|show|say|note|add|include|highlight|emphasi[sz]e|stress|point out|tell (?:them|viewers|people)|remind (?:them|viewers|people)|make sure to (?:mention|say|explain|show)|talk about|cover|focus on|describe)\s+(?:that\s+)?/i;
const INSTRUCTION =
  /^(?:keep|make)\s+it\b|^(?:use|write in|tone|style|end|close|finish|start|open|begin|avoid|don't|do not|no)\b/i;
const AUDIENCE_SENTENCE =
  /^(?:target(?:ed)?(?: at)?|aimed at|audience(?: is)?:?|for|it's for|this is for|the audience is)\s+(.+)$/i;
const LIST_NOUNS =
  'tips|ways|reasons|mistakes|habits|things|steps|signs|secrets|lessons|facts|myths|rules|ideas|tricks|hacks|strategies|questions|benefits|tools|apps|books|foods|exercises';
const LIST_HEAD = new RegExp(
  String.raw`^(?:the\s+)?(?:top\s+)?(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+((?:[\w-]+\s+){0,2}?(?:${LIST_NOUNS}))\b\s*(.*)$`,
  'i',
);
const LIST_LEAD = new RegExp(
  String.raw`^((?:[\w-]+\s+)?(?:${LIST_NOUNS}))\s+(on|for|about|to|of)\s+(.+)$`,
  'i',
);
const TOPIC_SUFFIX =
  /\s+(?:explained|simplified|decoded|unpacked|breakdown|basics|101|in \d+ seconds|for beginners|for dummies)$/i;
const PRODUCT_HEAD =
  /^(?:our|my|introducing|meet|announcing|launching|presenting|say hello to|the new|new)\b/i;
const NUMBER = /(?:[$€£]\s?)?\d[\d,]*(?:\.\d+)?\s?(?:%|x\b|k\b|m\b|percent\b)?/gi;
const MODALS = new Set(['should', 'can', 'could', 'will', 'would', 'must', 'might', 'may', 'shall']);
const CLAIMLESS_VERBS = new Set(['work', 'happen', 'begin', 'start', 'function', 'operate', 'exist', 'end']);

function stripEndPunctuation(text: string): string {
  return text
    .trim()
    .replace(/^["'\u201c\u2018]+|["'\u201d\u2019]+$/g, '')
    .replace(/[.!?;:,]+$/, '')
    .trim();
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Puts words in the case they should have mid-sentence: names and acronyms kept, sentence capitals dropped. */
function normalizeCase(text: string, brandName: string | undefined): string {
  const ws = words(text);
  const long = ws.filter((w) => /^\p{L}{4,}/u.test(w));
  // Title Case ("Why Sleep Matters For Athletes"): nearly every long word capitalized, ordinary words included.
  const capitalized = long.filter((w) => /^\p{Lu}/u.test(w));
  const titled =
    long.length >= 3 &&
    capitalized.length / long.length >= 0.8 &&
    capitalized.slice(1).some((w) => isOrdinaryOpener(w.replace(/[^\p{L}]/gu, '')));
  return ws
    .map((w, i) => {
      const bare = w.replace(/[^\p{L}\p{N}'-]/gu, '');
      const fixed = fixedCase(bare);
      if (brandName && bare.toLowerCase() === brandName.toLowerCase()) return w.replace(bare, brandName);
      if (fixed) return w.replace(bare, fixed);
      if (bare.toLowerCase() === 'i') return w.replace(bare, 'I');
      // Short all-caps words are acronyms; longer ones are shouting and get lower-cased.
      if (/^\p{Lu}{2,5}\d*s?$/u.test(bare) || (/\p{Ll}/u.test(bare) && /\p{Lu}/u.test(bare.slice(1))))
        return w;
      if (/^\p{Lu}{6,}$/u.test(bare)) return w.toLowerCase();
      if (titled) return w.toLowerCase();
      if (i === 0 && isOrdinaryOpener(bare)) return w.toLowerCase();
      return w;
    })
    .join(' ');
}

function stripMeta(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const next = out.replace(META_PREFIX, '');
    if (next === out) break;
    out = next;
  }
  return out;
}

interface Clause {
  subject: string[];
  verb: string[];
  rest: string[];
}

function bare(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}'-]/gu, '');
}

/** Finds subject, verb group and the rest. `loose` also accepts a base-form verb anywhere after the subject. */
function parseClause(ws: string[], loose: boolean): Clause | undefined {
  const lower = ws.map(bare);
  let v = -1;
  for (let i = 1; i < ws.length && v < 0; i++) {
    const w = lower[i]!;
    const prev = lower[i - 1]!;
    if (isDeterminer(prev) || isPreposition(prev)) continue;
    if (AUXILIARIES.has(w)) {
      v = i;
      break;
    }
    const form = verbForm(w);
    if (!form || form.form === 'gerund') continue;
    const next = lower[i + 1];
    const nextForm = next ? verbForm(next) : undefined;
    // "interest rates affect savings": a plural noun that looks like a verb, followed by the real verb.
    if (form.form === 'third' && nextForm?.form === 'base' && !isStopWord(next!)) continue;
    if (form.form === 'third' || form.form === 'past') v = i;
    else if (form.form === 'base' && (loose || (/[^s]s$/.test(prev) && !isStopWord(prev)) || isPronoun(prev)))
      v = i;
  }
  if (v < 1) return undefined;
  let end = v + 1;
  while (
    end < ws.length &&
    (AUXILIARIES.has(lower[end]!) ||
      /^(not|never|really|actually|quietly|slowly|quickly|always|often|also|still|just)$/.test(lower[end]!) ||
      (verbForm(lower[end]!)?.form === 'gerund' && AUXILIARIES.has(lower[end - 1]!)) ||
      (verbForm(lower[end]!) && AUXILIARIES.has(lower[end - 1]!)))
  )
    end++;
  if (end < ws.length && /^(up|out|down|off|over)$/.test(lower[end]!)) end++;
  return { subject: ws.slice(0, v), verb: ws.slice(v, end), rest: ws.slice(end) };
}

/** The leading noun phrase of a word run, up to the first preposition, verb-ish stop word or comma. */
function leadingNounPhrase(ws: string[]): string | undefined {
  const out: string[] = [];
  for (const w of ws) {
    const b = bare(w);
    if (out.length > 0 && (isPreposition(b) || (isStopWord(b) && !isDeterminer(b)))) break;
    const form = verbForm(b)?.form;
    const prev = bare(out.at(-1) ?? '');
    // "remote teams ship faster": a base-form verb after a plural noun starts a new clause.
    if (out.length > 0 && form === 'base' && /[^s]s$/.test(prev)) break;
    if (out.length === 0 && isStopWord(b) && !isDeterminer(b)) break;
    out.push(w.replace(/[,;:]$/, ''));
    if (/[,;:]$/.test(w)) break;
  }
  while (out.length > 1 && /^(this|that|these|those|some|any|every|each)$/.test(bare(out[0]!))) out.shift();
  const phrase = out.join(' ');
  return out.some((w) => !isStopWord(bare(w))) ? phrase : undefined;
}

function phraseAfter(
  ws: string[],
  preposition: string,
  test?: (phrase: string) => boolean,
): string | undefined {
  for (let i = ws.length - 2; i >= 0; i--) {
    if (bare(ws[i]!) !== preposition) continue;
    const phrase = leadingNounPhrase(ws.slice(i + 1));
    if (phrase && (!test || test(phrase))) return phrase;
  }
  return undefined;
}

/** The bare verb phrase without modals: "should start investing early" → "start investing early". */
function infinitivePhrase(vp: string[]): string {
  let ws = vp;
  while (ws.length > 1 && (MODALS.has(bare(ws[0]!)) || /^(not|really|actually)$/.test(bare(ws[0]!))))
    ws = ws.slice(1);
  if (ws.length > 2 && /^(need|want|have)$/.test(bare(ws[0]!)) && bare(ws[1]!) === 'to') ws = ws.slice(2);
  const first = bare(ws[0]!);
  return [verbForm(first)?.base ?? first, ...ws.slice(1)].join(' ');
}

/** Turns a verb phrase into a gerund phrase: "write a resume" → "writing a resume". */
function gerundPhrase(vp: string[]): string {
  let ws = vp;
  while (ws.length > 1 && (MODALS.has(bare(ws[0]!)) || /^(not|really|actually)$/.test(bare(ws[0]!))))
    ws = ws.slice(1);
  if (ws.length > 2 && /^(need|want|have|try|learn)$/.test(bare(ws[0]!)) && bare(ws[1]!) === 'to')
    ws = ws.slice(2);
  if (ws.length > 1 && /^(start|keep|stop|begin|avoid|quit)$/.test(bare(ws[0]!)) && /ing$/.test(bare(ws[1]!)))
    ws = ws.slice(1);
  const first = bare(ws[0]!);
  const base = verbForm(first)?.base ?? first;
  return [/ing$/.test(first) ? first : gerund(base), ...ws.slice(1)].join(' ');
}

function withoutTrailingAudience(ws: string[]): { ws: string[]; audience?: string } {
  for (let i = ws.length - 2; i >= 1; i--) {
    const p = bare(ws[i]!);
    if (p !== 'for' && p !== 'to') continue;
    const tail = ws.slice(i + 1).join(' ');
    const phrase = leadingNounPhrase(ws.slice(i + 1));
    if (phrase && phrase === tail && isPeopleGroup(phrase)) return { ws: ws.slice(0, i), audience: phrase };
  }
  return { ws };
}

interface Head {
  frame: BriefFrame;
  topic: string;
  question?: string;
  claim?: string;
  result?: string;
  action?: string;
  object?: string;
  means?: string;
  audience?: string;
  listCount?: number;
  listNoun?: string;
  productName?: string;
  category?: string;
}

function fromClause(ws: string[], wh: string | undefined, clause: Clause): Head {
  const subject = clause.subject.join(' ');
  const verbBase = verbForm(bare(clause.verb.at(-1)!))?.base ?? '';
  const pronounSubject = clause.subject.length === 1 && isPronoun(bare(clause.subject[0]!));
  const topic = pronounSubject ? gerundPhrase([...clause.verb, ...clause.rest]) : subject;
  const action = pronounSubject ? infinitivePhrase([...clause.verb, ...clause.rest]) : undefined;
  const claimText = ws.join(' ');
  const meaningfulClaim = clause.rest.length > 0 || !CLAIMLESS_VERBS.has(verbBase);
  const past = clause.verb.some((w) => verbForm(bare(w))?.form === 'past');
  const object = leadingNounPhrase(clause.rest);
  return {
    frame: wh === 'how' ? 'how' : wh === 'why' ? 'why' : wh ? 'what' : 'statement',
    topic,
    question: wh ? `${wh} ${claimText}` : past ? `how ${claimText}` : undefined,
    // "why you should start investing early" gives advice, not a statement about the world.
    claim: meaningfulClaim && !pronounSubject ? claimText : undefined,
    result: past && !pronounSubject ? claimText : undefined,
    action,
    object,
    means:
      phraseAfter(clause.rest, 'with') ??
      phraseAfter(clause.rest, 'using') ??
      phraseAfter(clause.rest, 'through'),
    audience:
      phraseAfter(clause.rest, 'for', isPeopleGroup) ??
      (object && isPeopleGroup(object) ? object : undefined),
  };
}

function capitalizedName(ws: string[], brandName: string | undefined): string | undefined {
  if (brandName && ws.some((w) => bare(w) === brandName.toLowerCase())) return brandName;
  const name = ws.find(
    (w, i) =>
      /^\p{Lu}/u.test(w) &&
      !fixedCase(bare(w)) &&
      !(i === 0 && isOrdinaryOpener(bare(w))) &&
      !/^\p{Lu}+$/u.test(w.replace(/[^\p{L}]/gu, '')),
  );
  return name?.replace(/[^\p{L}\p{N}'-]/gu, '');
}

function readHead(text: string, src: BriefSource): Head {
  const ws0 = words(text);
  const { ws, audience } = withoutTrailingAudience(ws0);
  const lower = ws.map(bare);
  const first = lower[0] ?? '';

  if (first === 'how' && lower[1] === 'to' && ws.length > 2) {
    const action = ws.slice(2);
    return {
      frame: 'howto',
      topic: gerundPhrase(action),
      question: ws.join(' '),
      action: action.join(' '),
      audience,
      object: leadingNounPhrase(action.slice(1)),
    };
  }

  const list = LIST_HEAD.exec(ws.join(' '));
  if (list) {
    const count = wordNumber(list[1]!);
    const rest = words(list[3] ?? '');
    const lead = bare(rest[0] ?? '');
    let topic: string | undefined;
    if (lead === 'to' && rest.length > 1) topic = gerundPhrase(rest.slice(1));
    else if (isPreposition(lead) && rest.length > 1) topic = rest.slice(1).join(' ');
    return {
      frame: 'list',
      topic: topic ?? ws.join(' '),
      listCount: count,
      listNoun: list[2]!.toLowerCase(),
      audience,
    };
  }

  if (first === 'what' && (lower[1] === 'is' || lower[1] === 'are') && ws.length > 2) {
    const topic = ws.slice(2).join(' ');
    return { frame: 'what', topic, question: `what ${topic} ${lower[1]}`, audience };
  }

  if (WH_WORDS.has(first) && ws0.length > 1) {
    const clause = parseClause(ws0.slice(1), true);
    if (clause) return fromClause(ws0.slice(1), first, clause);
    return { frame: 'what', topic: ws.slice(1).join(' '), question: ws.join(' '), audience };
  }

  if (PRODUCT_HEAD.test(ws.join(' ')) || (src.productMinded && capitalizedName(ws, src.brandName))) {
    const clause = parseClause(ws0, false);
    const name = capitalizedName(ws, src.brandName);
    if (clause && name && clause.subject.some((w) => bare(w) === name.toLowerCase())) {
      return { ...fromClause(ws0, undefined, clause), frame: 'product', topic: name, productName: name };
    }
    if (!clause) {
      const categoryWords = ws.filter(
        (w) =>
          !/^(our|my|introducing|meet|announcing|launching|presenting|say|hello|to|the|new|brand-new|a|an|all-new)$/i.test(
            bare(w),
          ) && bare(w) !== name?.toLowerCase(),
      );
      const category = leadingNounPhrase(categoryWords.map((w) => w.replace(/,$/, '')));
      if (name || category) {
        return { frame: 'product', topic: name ?? category!, productName: name, category, audience };
      }
    }
  }

  const clause = parseClause(ws0, false);
  if (clause && clause.subject.some((w) => !isStopWord(bare(w)))) return fromClause(ws0, undefined, clause);
  const listed = LIST_LEAD.exec(ws.join(' '));
  if (listed)
    return {
      frame: 'list',
      topic: listed[3]!,
      listNoun: listed[1]!.toLowerCase().replace(/^(the|some|a)\s+/, ''),
      audience,
    };
  return { frame: 'topic', topic: ws.join(' '), audience };
}

function readPoint(
  sentence: string,
  brandName: string | undefined,
): { point?: BriefPoint; audience?: string } {
  const text = stripEndPunctuation(sentence);
  const aud = AUDIENCE_SENTENCE.exec(text);
  if (aud && isPeopleGroup(aud[1]!)) return { audience: normalizeCase(aud[1]!, brandName) };
  if (INSTRUCTION.test(text) && !POINT_PREFIX.test(text)) return {};
  const stripped = normalizeCase(text.replace(POINT_PREFIX, ''), brandName);
  if (!/\p{L}/u.test(stripped)) return {};
  const ws = words(stripped);
  const kind = !WH_WORDS.has(bare(ws[0]!)) && parseClause(ws, false) ? 'clause' : 'phrase';
  return { point: { text: stripped, kind } };
}

function contentWords(text: string): string[] {
  return words(text)
    .map((w) => w.replace(/^[^\p{L}\p{N}$€£]+|[^\p{L}\p{N}%]+$/gu, ''))
    .filter(
      (w) =>
        w.length > 0 &&
        !isStopWord(w.toLowerCase()) &&
        w.toLowerCase() !== 'new' &&
        !WH_WORDS.has(w.toLowerCase()) &&
        (w.length > 2 || /\d|^\p{Lu}{2}$/u.test(w)),
    );
}

/** Reads a brief (topic and/or prompt) into the parts a script is built from. */
export function analyzeBrief(src: BriefSource): BriefAnalysis {
  const sentences = [src.topic, src.prompt]
    .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    .flatMap((s) => splitSentences(s))
    .map(stripEndPunctuation)
    .filter(Boolean);
  if (sentences.length === 0) throw new TypeError('a brief needs a topic or a prompt');

  const headText = normalizeCase(stripMeta(sentences[0]!), src.brandName).replace(TOPIC_SUFFIX, '');
  let head = readHead(headText, src);
  let rest = sentences.slice(1);
  // A bare topic followed by a question about "it" reads as that question about the topic.
  if (src.topic && head.frame === 'topic' && rest.length > 0) {
    const next = normalizeCase(stripMeta(rest[0]!), src.brandName).replace(
      /^(how|why|when)\s+(it|they)\b/i,
      `$1 ${head.topic}`,
    );
    if (/^(how|why|when)\s/i.test(next)) {
      const asked = readHead(next, src);
      if (asked.frame !== 'topic') {
        head = { ...asked, topic: head.topic };
        rest = rest.slice(1);
      }
    }
  }

  const points: BriefPoint[] = [];
  let audience = head.audience;
  for (const s of rest) {
    const read = readPoint(s, src.brandName);
    if (read.audience) audience ??= read.audience;
    if (read.point) points.push(read.point);
  }
  if (head.frame === 'list' || head.frame === 'topic') {
    const items = head.topic
      .split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length >= 3) for (const item of items) points.push({ text: item, kind: 'phrase' });
  }

  const productName =
    head.productName ?? (src.productMinded ? capitalizedName(words(headText), src.brandName) : undefined);
  const allText = [headText, ...points.map((p) => p.text)].join(' ');
  const numbers = [...allText.matchAll(NUMBER)].map((m) => m[0].trim()).filter((n) => /\d/.test(n));
  const keywords: string[] = [];
  for (const w of contentWords(
    [head.topic, head.object ?? '', audience ?? '', head.category ?? '', headText].join(' '),
  )) {
    if (!keywords.some((k) => k.toLowerCase() === w.toLowerCase())) keywords.push(w);
  }

  return {
    frame: head.frame,
    headline: headText,
    topic: head.topic,
    topicPlural: isPluralPhrase(head.topic),
    question: head.question,
    claim: head.claim,
    result: head.result,
    action: head.action,
    object: head.object,
    means: head.means,
    audience,
    productName,
    category: head.category,
    listCount: head.listCount,
    listNoun: head.listNoun,
    numbers,
    keywords,
    points,
  };
}
