// The local content policy for presenter scripts (issue 12, spec 1 §4.5). A presenter video puts words in a
// real-looking person's mouth, so a script is refused when it would have that person sexualise minors, speak
// explicit sex, threaten or incite violence, push self-harm, spread hate, pose as a real public figure or an
// official body, or run a known scam. The policy is deterministic and explainable: each rule is a short
// phrase grammar matched within one sentence, so a refusal can always name the sentence and the words that
// broke it.
//
// Nouns are found the way a brand kit's banned topics are (src/media/script/banned-topics.ts): whole words,
// any case, singular or plural, spaces or hyphens between words; fixed expressions and names the same way, as
// written. Contractions are spelled out first ("I'm" reads as "I am"). A rule has an anchor phrase and, where
// the words alone are not enough, phrases that must stand right before or after it ("I will" + "kill" +
// "you"), or elsewhere in the sentence. Sentences that only discuss a harm are let through by exemptions: a
// negation just before ("never share your seed phrase"), or words of reporting, help or warning in the
// sentence ("police arrested…", "call the 988 lifeline", "beware of…"). It reads words, not intent; a
// configured moderation provider (content-check.ts) reads the rest.
import nlp from 'compromise';
import { BannedTopics } from '../../media/script/banned-topics.ts';
import { splitSentences } from '../../media/script/sentences.ts';

export const SCRIPT_POLICY_CATEGORIES = {
  sexual_minors: {
    title: 'Sexual content involving minors',
    description:
      'Any sexual or nude reference to children, teens or anyone under 18; reporting on abuse and child-protection advice pass.',
  },
  sexual: {
    title: 'Sexual content',
    description:
      'Explicit sex acts, sexual propositions to the viewer, and promotion of porn or sexual services; sex education and health pass.',
  },
  violent_threats: {
    title: 'Threats and incitement to violence',
    description:
      'The presenter threatening to kill or hurt people, or calling on others to attack people or places; figures of speech ("kill the competition") and games pass.',
  },
  self_harm: {
    title: 'Self-harm encouragement or instructions',
    description:
      'Telling someone to kill or hurt themselves, or how to; crisis-line, prevention and recovery messages pass.',
  },
  hate: {
    title: 'Hate',
    description:
      'Slurs, and statements calling people vermin, subhuman or worse, or wishing them dead, for their race, ethnicity, nationality, religion, sex, sexual orientation, gender identity or disability.',
  },
  impersonation: {
    title: 'Impersonation',
    description:
      'The presenter claiming to be a named real public figure or a holder of public office, or speaking for an official body (a tax office, the police, a government agency).',
  },
  fraud: {
    title: 'Fraud patterns',
    description:
      'Promised guaranteed investment returns or money multiplied overnight, asking viewers for passwords, codes or wallet seed phrases, and send-money-get-double giveaways.',
  },
} as const satisfies Record<string, { title: string; description: string }>;

export type ScriptPolicyCategory = keyof typeof SCRIPT_POLICY_CATEGORIES;

export type LocalScriptVerdict =
  | { allowed: true }
  | {
      allowed: false;
      category: ScriptPolicyCategory;
      /** Why, in words fit for an API user: what the script does and the words that show it. */
      reason: string;
      /** The sentence of the script that broke the rule (clipped when long). */
      excerpt: string;
    };

// -----------------------------------------------------------------------------------------------------------
// Matching

interface Span {
  start: number;
  end: number;
  text: string;
}

/** Finds every occurrence of something in a sentence. */
interface Matcher {
  find(text: string): Span[];
  /** The most words one occurrence spans, to size the windows searched before and after an anchor. */
  readonly maxWords: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** "Elon Musk's car" does not name Elon Musk as the speaker; "the kids' videos" does not target the kids. */
function withoutPossessives(text: string, spans: Span[]): Span[] {
  return spans.filter((s) => !/^'s?(?![\p{L}\p{N}])/u.test(text.slice(s.end)));
}

function wordsIn(phrase: string): string[] {
  return phrase
    .normalize('NFKC')
    .trim()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

/** Nouns, matched like a brand kit's banned topics: in the singular or the plural ("kid" finds "Kids"). */
class Terms implements Matcher {
  private readonly topics: BannedTopics;
  readonly maxWords: number;

  constructor(
    phrases: readonly string[],
    private readonly notPossessive = false,
  ) {
    this.topics = new BannedTopics(phrases);
    this.maxWords = Math.max(...phrases.map((p) => countWords(p)));
  }

  find(text: string): Span[] {
    // BannedTopics gives each phrase's first occurrence; searching again after the earliest finds the rest.
    const spans = new Map<string, Span>();
    let from = 0;
    for (;;) {
      const hits = this.topics.findAll(text.slice(from));
      if (hits.length === 0) break;
      let earliestStart = Infinity;
      let earliestEnd = Infinity;
      for (const hit of hits) {
        const start = from + hit.index;
        const end = start + hit.text.length;
        spans.set(`${start}:${end}`, { start, end, text: hit.text });
        if (start < earliestStart) [earliestStart, earliestEnd] = [start, end];
      }
      from = earliestEnd;
    }
    const found = [...spans.values()].sort((a, b) => a.start - b.start || b.end - a.end);
    return this.notPossessive ? withoutPossessives(text, found) : found;
  }
}

/** A regular expression: fixed phrases and names, an age, a capitalised name, a multiplier. */
class Pattern implements Matcher {
  private readonly re: RegExp;

  constructor(
    re: RegExp,
    readonly maxWords: number,
    private readonly accept: (match: RegExpExecArray) => boolean = () => true,
    private readonly notPossessive = false,
  ) {
    this.re = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  }

  find(text: string): Span[] {
    const found = [...text.matchAll(this.re)]
      .filter((m) => this.accept(m))
      .map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] }));
    return this.notPossessive ? withoutPossessives(text, found) : found;
  }
}

/**
 * Fixed expressions and names, which do not inflect ("i am going to", "Elon Musk", "Canadians"): one
 * regular expression for the whole list, with the banned topics' conventions (whole words, any case, spaces
 * or hyphens between words). Longer phrases are tried first, so "you all" wins over "you".
 */
function fixed(list: readonly string[], notPossessive = false): Pattern {
  const alternatives = [...new Set(list.map((p) => wordsIn(p).map(escapeRegExp).join('[\\s_-]+')))].sort(
    (a, b) => b.length - a.length,
  );
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  return new Pattern(re, Math.max(...list.map((p) => countWords(p))), () => true, notPossessive);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Any of several matchers. */
class AnyOf implements Matcher {
  readonly maxWords: number;
  private readonly matchers: readonly Matcher[];

  constructor(...matchers: Matcher[]) {
    this.matchers = matchers;
    this.maxWords = Math.max(...matchers.map((m) => m.maxWords));
  }

  find(text: string): Span[] {
    return this.matchers.flatMap((m) => m.find(text)).sort((a, b) => a.start - b.start || b.end - a.end);
  }
}

/** A matcher and how many words may stand between it and its neighbour towards the anchor. */
interface Step {
  match: Matcher;
  maxGap: number;
}

interface Rule {
  category: ScriptPolicyCategory;
  anchor: Matcher;
  /** Nearest first: each must end at most `maxGap` words before the previous one (or the anchor) starts. */
  before?: Step[];
  /** Nearest first: each must start at most `maxGap` words after the previous one (or the anchor) ends. */
  after?: Step[];
  /** Must also occur somewhere in the sentence. */
  alsoIn?: Matcher;
  /** Words right after the match that make it harmless ("shoot you an email"). */
  notFollowedBy?: Matcher;
  /** Words right before the anchor that make it another word ("you will return" is not an investment's). */
  notPrecededBy?: Matcher;
  /** A negation in the five words before the anchor, in the same clause, lets the sentence through. */
  negatable?: boolean;
  /** Any of these in the sentence lets it through: it reports on, warns against or offers help with the harm. */
  exemptIn?: Matcher;
  reason: (match: string, anchor: string) => string;
}

/** Clause punctuation: a gap between the parts of a rule never crosses it. */
const CLAUSE_BREAK = /[,;:!?.()"\u2014\u2013]/;

function gapWords(between: string): number | undefined {
  return CLAUSE_BREAK.test(between) ? undefined : countWords(between);
}

/** Where the last `n` words of `text` begin. */
function startOfLastWords(text: string, n: number): number {
  const starts = [...text.matchAll(WORD)].map((m) => m.index);
  return starts.length > n ? (starts[starts.length - n] ?? 0) : 0;
}

/** Where the first `n` words of `text` end. */
function endOfFirstWords(text: string, n: number): number {
  const words = [...text.matchAll(WORD)];
  const last = words[Math.min(n, words.length) - 1];
  return last ? last.index + last[0].length : 0;
}

function stepBefore(sentence: string, pos: number, step: Step): Span | undefined {
  const head = sentence.slice(0, pos);
  const from = startOfLastWords(head, step.maxGap + step.match.maxWords);
  const window = head.slice(from);
  let best: Span | undefined;
  for (const s of step.match.find(window)) {
    const gap = gapWords(window.slice(s.end));
    if (gap !== undefined && gap <= step.maxGap && (!best || s.end > best.end)) best = s;
  }
  return best && { start: from + best.start, end: from + best.end, text: best.text };
}

function stepAfter(sentence: string, pos: number, step: Step): Span | undefined {
  const tail = sentence.slice(pos);
  const window = tail.slice(0, endOfFirstWords(tail, step.maxGap + step.match.maxWords));
  let best: Span | undefined;
  for (const s of step.match.find(window)) {
    const gap = gapWords(window.slice(0, s.start));
    if (gap !== undefined && gap <= step.maxGap && (!best || s.start < best.start)) best = s;
  }
  return best && { start: pos + best.start, end: pos + best.end, text: best.text };
}

const NEGATIONS = new Set(['not', 'never', 'no', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without']);

/**
 * Whether a negation stands in the same clause within five words before the match, or inside it before the
 * anchor: "we will never ask you to send your PIN", "I will not hurt you".
 */
function negated(sentence: string, matchStart: number, anchorStart: number): boolean {
  const head = sentence.slice(0, anchorStart);
  const clauseStart = Math.max(...[...',;:!?.()"'].map((c) => head.lastIndexOf(c))) + 1;
  const from = Math.max(clauseStart, startOfLastWords(sentence.slice(0, matchStart), 5));
  return (head.slice(from).match(WORD) ?? []).some((w) => NEGATIONS.has(w.toLowerCase()));
}

/** One sentence prepared for matching, with each matcher's occurrences found once. */
class Sentence {
  readonly text: string;
  private readonly found = new Map<Matcher, Span[]>();

  constructor(readonly original: string) {
    this.text = normalizeForMatching(original);
  }

  find(matcher: Matcher): Span[] {
    let spans = this.found.get(matcher);
    if (!spans) {
      spans = matcher.find(this.text);
      this.found.set(matcher, spans);
    }
    return spans;
  }
}

/** Typographic quotes made plain and contractions spelled out, so "I'm", "I’m" and "I am" read alike. */
function normalizeForMatching(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc`\u00b4]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\b(i)'m\b/giu, '$1 am')
    .replace(/\b(i)'ma\b|\bimma\b/giu, 'I am going to')
    .replace(/\bwon't\b/giu, 'will not')
    .replace(/\bcan't\b/giu, 'can not')
    .replace(/\bshan't\b/giu, 'shall not')
    .replace(/\b(\p{L}+)n't\b/giu, '$1 not')
    .replace(/\b(\p{L}+)'re\b/giu, '$1 are')
    .replace(/\b(\p{L}+)'ll\b/giu, '$1 will')
    .replace(/\b(\p{L}+)'ve\b/giu, '$1 have')
    .replace(/\b(\p{L}+)'d\b/giu, '$1 would')
    .replace(/\b(it|that|there|here|what|who|he|she)'s\b/giu, '$1 is')
    .replace(/\blet's\b/giu, 'let us')
    .replace(/\bgonna\b/giu, 'going to')
    .replace(/\bwanna\b/giu, 'want to')
    .replace(/\bgotta\b/giu, 'got to');
}

interface RuleMatch {
  reason: string;
  start: number;
  end: number;
}

function matchRule(rule: Rule, sentence: Sentence): RuleMatch | undefined {
  const anchors = sentence.find(rule.anchor);
  if (anchors.length === 0) return undefined;
  if (rule.alsoIn && sentence.find(rule.alsoIn).length === 0) return undefined;
  if (rule.exemptIn && sentence.find(rule.exemptIn).length > 0) return undefined;
  const text = sentence.text;
  for (const anchor of anchors) {
    let start = anchor.start;
    let end = anchor.end;
    let matched = true;
    for (const step of rule.before ?? []) {
      const s = stepBefore(text, start, step);
      if (!s) {
        matched = false;
        break;
      }
      start = s.start;
    }
    for (const step of matched ? (rule.after ?? []) : []) {
      const s = stepAfter(text, end, step);
      if (!s) {
        matched = false;
        break;
      }
      end = s.end;
    }
    if (!matched) continue;
    if (rule.notFollowedBy && stepAfter(text, end, { match: rule.notFollowedBy, maxGap: 0 })) continue;
    if (rule.notPrecededBy && stepBefore(text, anchor.start, { match: rule.notPrecededBy, maxGap: 0 }))
      continue;
    if (rule.negatable && negated(text, start, anchor.start)) continue;
    return { reason: rule.reason(text.slice(start, end), anchor.text), start, end };
  }
  return undefined;
}

const EXCERPT_CHARS = 200;

function excerptOf(sentence: Sentence, match: RuleMatch): string {
  const original = sentence.original;
  if (original.length <= EXCERPT_CHARS) return original;
  // The match was found in the normalized text; its place in the original is close to the same fraction.
  const centre = Math.round(((match.start + match.end) / 2 / sentence.text.length) * original.length);
  const from = Math.max(0, Math.min(original.length - EXCERPT_CHARS, centre - EXCERPT_CHARS / 2));
  return `${from > 0 ? '…' : ''}${original.slice(from, from + EXCERPT_CHARS).trim()}${from + EXCERPT_CHARS < original.length ? '…' : ''}`;
}

// -----------------------------------------------------------------------------------------------------------
// Vocabulary: comma-separated phrases. Nouns become Terms (singular and plural); the rest fixed() patterns.

function phrases(list: string): string[] {
  return list
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
}

function lexiconWords(tag: string): string[] {
  const { lexicon } = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one;
  return Object.entries(lexicon)
    .filter(([, tags]) => (Array.isArray(tags) ? tags : [tags]).includes(tag))
    .map(([word]) => word);
}

const FIRST_PERSON_INTENT = phrases(`i will, we will, i shall, we shall, i am going to, we are going to,
  i want to, we want to, i plan to, we plan to, i intend to, we intend to, i am about to, i swear i will,
  i am coming to, we are coming to, i will come and, i would love to`);
const CALLS_TO_ACT = phrases(`let us, we must, we should, you must, you should, everyone should,
  someone should, somebody should, someone needs to, somebody needs to, someone has to, we need to,
  you need to, we have to, you have to, it is time to, go, go and, rise up and, i urge you to,
  i call on you to, i want you to, join me and`);
/** Groups defined by a protected characteristic; nationalities come from compromise's lexicon. */
const GROUPS = phrases(`jew, jewish people, muslim, muslim people, christian, hindu, sikh, buddhist,
  catholic, mormon, atheist, immigrant, migrant, refugee, asylum seeker, foreigner, black people, black men,
  black women, blacks, whites, white people, brown people, hispanic, latino, latina, arab, gypsy, roma,
  gay people, gay, lesbian, bisexual, homosexual, queer people, trans people, transgender people,
  transgender, trans women, trans men, woman, man, disabled people, the disabled, people with disabilities,
  autistic people, deaf people, blind people`);
const HUMAN_TARGETS = phrases(`you, you all, all of you, each of you, every one of you, him, her, them,
  all of them, everyone, everybody, anyone who, whoever, people, those people, these people, your family,
  your kid, your child, your wife, your husband, your mother, your father, my wife, my husband, my boss,
  my neighbor, my neighbour, my teacher, my classmate, the president, the police, police officer, cop,
  the judge, the jury, teacher, student, kid, child`);

const MINORS = phrases(`child, kid, minor, preteen, pre-teen, tween, toddler, infant, schoolgirl, schoolboy,
  little girl, little boy, little kid, young girl, young boy, young kid, young teen, teen, teenager,
  teenage girl, teenage boy, underage, under age, underaged, under 18, under eighteen, middle schooler,
  grade schooler, elementary schooler`);
const AGE_WORDS = phrases(`one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve,
  thirteen, fourteen, fifteen, sixteen, seventeen`);
const SEX_SLANG = phrases(`blowjob, blow job, handjob, hand job, rimjob, cumshot, creampie, gangbang,
  gang bang, bukkake, hardcore porn, porn video, porn site, xxx video, sex cam, camgirl, cam girl`);
const SEXUAL_ACTS = phrases(`have sex, having sex, had sex, has sex, sex with, sexual relationship,
  sexual relations, sexual contact, sexual act, sexual favor, sexual favour, sexual pleasure,
  sexually touch, touch sexually, intercourse, porn, porno, pornography, pornographic, send nudes,
  nude photo, nude picture, nude pic, nude video, nude selfie, nude image, naked photo, naked picture,
  naked pic, naked video, naked selfie, naked image, erotic, erotica, seduce, seducing, seduction,
  masturbate, masturbating, masturbation, orgasm, make out with, striptease, strip for`);
/** Reporting, justice, research and protection: a sentence with these discusses the harm. */
const REPORTING = phrases(`abuse, abused, abuser, abusers, exploitation, exploited, grooming, groomer,
  groomers, predator, predators, pedophile, pedophiles, paedophile, paedophiles, trafficking, trafficked,
  arrest, arrests, arrested, charged, convicted, conviction, sentenced, jailed, prison, police, court,
  courts, trial, prosecutor, prosecutors, prosecuted, investigation, investigated, illegal, crime, crimes,
  criminal, criminals, offender, offenders, offense, offence, victim, victims, survivor, survivors, report,
  reports, reported, reporting, protect, protecting, protection, prevent, preventing, prevention,
  safeguarding, warning sign, warning signs, awareness, age of consent, law, laws, legislation, ban, bans,
  banned, age verification, study, studies, research, survey, surveys, statistics, addiction, sex education,
  sex ed, age-appropriate, puberty, health class, doctor, doctors, pediatrician`);
/** A quoted or condemned statement is reported, not made. */
const QUOTING = phrases(`said, says, claimed, called, quoted, condemned, remarks, comments, backlash,
  outrage, apologized, apologised, criticized, criticised`);

const VIOLENT_VERBS = phrases(`kill, murder, stab, behead, decapitate, slaughter, strangle, bomb, blow up,
  torture, lynch, rape, execute, gun down, hurt, harm, massacre, exterminate, butcher, maim, poison`);
/** What follows "shoot you", "kill them", "kill the child" in ordinary speech. */
const HARMLESS_OBJECTS = phrases(`with kindness, an email, an e-mail, a message, a text, a note, a link,
  a line, a dm, an invite, an update, a quick, over, a copy, the link, the details, some, a reminder,
  a call, process, processes, thread, threads, node, nodes`);
/** Gaming videos kill, shoot and raid all day. */
const GAMES = phrases(`game, games, gaming, gameplay, video game, boss, boss fight, raid, zombie, zombies,
  enemy, enemies, npc, npcs, respawn, multiplayer, quest, dungeon, level, mob, mobs, minecraft, fortnite,
  call of duty, in-game`);
const WEAPON_CUES = phrases(`gun, rifle, pistol, shotgun, bullet, ammo, weapon, dead, to death, in the head,
  in the face, kill, die`);
const PLACE_ATTACKS = phrases(`bomb, blow up, burn down, shoot up, set fire to, torch, attack, storm`);
const INSTITUTIONS = phrases(`school, mosque, church, synagogue, temple, embassy, parliament, capitol,
  congress, police station, clinic, abortion clinic, hospital, city hall, town hall, government building,
  federal building, white house, courthouse, stadium, concert, airport, train station, mall, shopping mall`);
const DEATH_TO_TARGETS = phrases(
  `infidel, traitor, the police, cop, the government, the west, the president`,
);

const SELF_HARM_TELLS = phrases(`kill yourself, kill yourselves, kys, go die, you should die,
  you deserve to die, better off dead, nobody would miss you, no one would miss you,
  the world would be better without you, slit your wrists, hang yourself, pro-ana, pro ana, thinspiration,
  thinspo, meanspo`);
const SELF_HARM_ACTS = phrases(`end your life, end your own life, take your own life, commit suicide,
  cut yourself, starve yourself, hurt yourself, harm yourself, self-harm, overdose, kill myself,
  end my life, hang myself, cut myself, starve myself`);
const SELF_HARM_FRAMES = phrases(`you should, you need to, you deserve to, you ought to, you must,
  go ahead and, why not, why do not you, it is time to, how to, ways to, the best way to,
  the easiest way to, the quickest way to, the fastest way to, a painless way to, how do i, how can i,
  how do you, step by step, learn how to`);
/** "Cut yourself a slice", "cut yourself some slack", "overdose on cute videos". */
const SELF_HARM_IDIOM_TAILS = phrases(`a, an, some, off, slack, free, loose, in, on, of, into, back,
  insurance, policy, bangs, hair, fringe, short`);
/** Crisis lines, prevention and recovery: the sentence offers help. */
const HELP = phrases(`hotline, hotlines, helpline, helplines, crisis line, crisis text line, lifeline, 988,
  116 123, samaritans, suicide prevention, reach out, please call, talk to someone, talk to a professional,
  therapist, therapists, counselor, counselors, counsellor, counsellors, you are not alone, get help,
  seek help, mental health professional, recovery, warning sign, warning signs, danger, dangers, harmful,
  awareness`);

/** Slurs without an everyday second meaning ("chink in the armour", "spick and span" are left out). */
const SLURS = phrases(`nigger, nigga, kike, wetback, beaner, gook, raghead, towelhead, sand nigger,
  camel jockey, faggot, tranny, porch monkey, jigaboo, zipperhead, wog, paki, spear chucker, spearchucker,
  chinaman`);
const DEHUMANISING = phrases(`animal, vermin, rat, cockroach, roach, parasite, leech, subhuman, sub-human,
  savage, a disease, a cancer, a plague, a virus, an infestation, filth, scum, trash, garbage,
  an inferior race, genetically inferior, racially inferior, less than human, not human, not people`);
const COPULAS = phrases(`are, are all, are just, are nothing but, are no better than, are basically,
  are simply, are truly, are clearly`);
const ELIMINATIONIST = phrases(`should be exterminated, should be eradicated, should be wiped out,
  should be gassed, should be eliminated, should be killed, should be shot, should be hanged,
  should be lynched, should die, must be exterminated, must be eradicated, must be wiped out, must die,
  deserve to die, do not deserve to live, should not exist, should not be allowed to live`);

/**
 * Real people whose faces and voices are most often faked in scam and propaganda videos: heads of state and
 * government, prominent politicians, business leaders and celebrities. Anyone else is caught only when
 * introduced with an office ("I am President …").
 */
const PUBLIC_FIGURES = phrases(`Joe Biden, Donald Trump, Kamala Harris, JD Vance, Barack Obama,
  Michelle Obama, Hillary Clinton, Bill Clinton, George Bush, Nancy Pelosi, Bernie Sanders,
  Alexandria Ocasio-Cortez, Ron DeSantis, Gavin Newsom, Vladimir Putin, Volodymyr Zelensky,
  Volodymyr Zelenskyy, Xi Jinping, Kim Jong Un, Narendra Modi, Emmanuel Macron, Keir Starmer, Rishi Sunak,
  Boris Johnson, Justin Trudeau, Mark Carney, Olaf Scholz, Friedrich Merz, Angela Merkel, Giorgia Meloni,
  Pedro Sánchez, Benjamin Netanyahu, Recep Tayyip Erdoğan, Recep Tayyip Erdogan, Lula da Silva,
  Javier Milei, Claudia Sheinbaum, Anthony Albanese, Cyril Ramaphosa, Mohammed bin Salman,
  Ursula von der Leyen, António Guterres, Antonio Guterres, Pope Francis, Pope Leo, King Charles,
  Prince William, Elon Musk, Jeff Bezos, Mark Zuckerberg, Bill Gates, Warren Buffett, Tim Cook,
  Sundar Pichai, Satya Nadella, Sam Altman, Jensen Huang, Larry Page, Sergey Brin, Larry Ellison,
  Steve Jobs, Richard Branson, Jack Ma, Mukesh Ambani, Bernard Arnault, Michael Saylor, Vitalik Buterin,
  Changpeng Zhao, Cathie Wood, Martin Lewis, Taylor Swift, Oprah Winfrey, Tom Hanks, Keanu Reeves,
  Scarlett Johansson, Beyoncé, Beyonce, Kim Kardashian, Cristiano Ronaldo, Lionel Messi, LeBron James,
  MrBeast, Mr Beast, Jimmy Donaldson, Dwayne Johnson, Leonardo DiCaprio, Morgan Freeman, David Attenborough,
  Gordon Ramsay, Joe Rogan`);
const SELF_INTRO = phrases(`i am, im, my name is, it is me, you are watching, you are listening to`);
const PUBLIC_OFFICES = phrases(`president, vice president, prime minister, senator, congressman,
  congresswoman, governor, chancellor, secretary of state, attorney general`);
/** Offices a presenter might name themselves by ("I am Mayor Adams"); royal titles only with a country. */
const TITLES = [...PUBLIC_OFFICES, ...phrases(`mayor, pope, chief justice, ambassador`)];
const ROYAL_TITLES = phrases(`king, queen, prince, princess, crown prince, head of state`);
/** Government bodies whose name scammers borrow; a company speaking for itself is not among them. */
const OFFICIAL_BODIES = phrases(`irs, internal revenue service, fbi, cia, nsa, dea, atf, homeland security,
  department of homeland security, social security administration, social security office, medicare,
  medicaid, federal trade commission, ftc, securities and exchange commission, federal reserve, treasury,
  department of the treasury, department of justice, justice department, doj, state department,
  department of state, white house, pentagon, us army, us marshals, police, police department,
  sheriff's office, sheriff's department, customs and border protection, border patrol,
  immigration and customs enforcement, uscis, immigration office, hmrc, hm revenue and customs, dwp,
  department for work and pensions, nhs, home office, metropolitan police, scotland yard,
  national crime agency, canada revenue agency, rcmp, australian taxation office, australian federal police,
  centrelink, interpol, europol, european commission, united nations, world health organization, government,
  federal government, tax office, tax authority, tax department, revenue service, supreme court,
  ministry of health, ministry of finance, ministry of the interior, ministry of justice,
  ministry of defence, ministry of defense, embassy, consulate`);
const SPEAKER_ROLES = phrases(`message, notice, announcement, alert, warning, call, letter, notification,
  statement, reminder, agent, officer, representative, calling, calling you, writing, writing to you,
  speaking, speaking to you, reaching out, sent`);

/** Warnings about scams: the sentence teaches viewers to spot one. */
const SCAM_AWARENESS = phrases(`scam, scams, scammer, scammers, fraud, frauds, fraudster, fraudsters,
  red flag, red flags, beware, warning, warnings, too good to be true, ponzi, pyramid scheme, fake,
  phishing, watch out, careful`);
/** A shop's returns are not an investment's. */
const RETAIL = phrases(`free returns, easy returns, return policy, returns policy, refund, exchange,
  shipping, delivery`);
const GUARANTEES = phrases(`guaranteed, guarantee, guarantees, we guarantee, i guarantee, 100% guaranteed`);
const INVESTMENT_GAINS = phrases(`return, profit, roi, return on investment, passive income, daily profit`);
/** "A return call", "profit margins". */
const NOT_INVESTMENT_RETURNS = phrases(`call, calls, policy, trip, flight, visit, date, label, window,
  address, ticket, journey, margin, margins`);
const GUARANTEED_TO_PAY = phrases(`guaranteed to return, guaranteed to earn, guaranteed to make,
  guaranteed to pay, guaranteed to double, guaranteed to triple, guarantee to return, guarantees to return`);
const MONEY = new Pattern(
  /(?<![\p{L}\p{N}])(?:\d[\d,.]*\s*(?:%|percent|x)|[$€£]\s?\d[\d,.]*|money|profits?|income|cash|returns?)(?![\p{L}\p{N}])/iu,
  2,
);
const MULTIPLY_MONEY = phrases(`double your money, double your investment, double your bitcoin,
  double your crypto, double your deposit, triple your money, triple your investment, 10x your money,
  10x your investment`);
const SHORT_TIMES = phrases(`overnight, in 24 hours, in 48 hours, in a day, in one day, in a week,
  in one week, in days, in hours, within 24 hours, within 48 hours, within a week, in 7 days, in 30 days,
  in a month, in one month, by tomorrow, instantly`);
const CREDENTIALS = phrases(`password, passcode, pin code, pin number, bank pin, card pin, atm pin,
  seed phrase, recovery phrase, secret phrase, secret recovery phrase, mnemonic phrase, wallet phrase,
  private key, wallet key, one-time code, one-time password, verification code, security code,
  authentication code, 2fa code, otp, login details, login credentials, log-in details, card number,
  credit card number, card details, cvv, social security number, ssn, bank login`);
const DISCLOSE = phrases(`send, sending, share, sharing, give, giving, tell, email, text, dm, message,
  reply with, read out, read me, comment, post, drop, whatsapp`);
/** "Share your password manager", "send your password reset link", "give your password a check". */
const CREDENTIAL_TOOLS = phrases(`manager, generator, reset, policy, strength, hygiene, habits, a, an`);
const GIVEAWAYS = phrases(`send you back double, send back double, send you double, send you twice,
  send back twice, get double back, get twice back, get back double, get back twice, receive double back,
  receive back double, return double, double it back, twice as much back, double the amount back,
  bitcoin giveaway, btc giveaway, crypto giveaway, ethereum giveaway, eth giveaway, usdt giveaway,
  solana giveaway, dogecoin giveaway, xrp giveaway`);

// -----------------------------------------------------------------------------------------------------------
// Rules, most severe category first

const quote = (s: string): string => `"${s}"`;

/** Built on first use (a few hundred milliseconds: every noun's plural is looked up). */
function compileRules(): Rule[] {
  // Nouns are matched in the singular and the plural; fixed expressions and names as written.
  const nouns = (...lists: string[][]): Terms => new Terms(lists.flat());
  const people = (...lists: string[][]): Terms => new Terms(lists.flat(), true);

  const demonyms = fixed(lexiconWords('Demonym'), true);
  const countries = fixed(lexiconWords('Country'), true);
  const minors = nouns(MINORS);
  const under18 = new Pattern(
    new RegExp(
      `(?<![\\p{L}\\p{N}])(?:(\\d{1,2}|${AGE_WORDS.join('|')})[\\s-]*(?:years?|yrs?)[\\s-]*olds?|aged?\\s+(\\d{1,2}))(?![\\p{L}\\p{N}])`,
      'iu',
    ),
    4,
    (m) => {
      const raw = (m[1] ?? m[2] ?? '').toLowerCase();
      const age = /^\d+$/.test(raw) ? Number(raw) : AGE_WORDS.indexOf(raw) + 1;
      return age >= 1 && age <= 17;
    },
  );
  const sexSlang = nouns(SEX_SLANG);
  const sexualActs = new AnyOf(sexSlang, nouns(SEXUAL_ACTS));
  const reporting = fixed(REPORTING);
  const intent = fixed(FIRST_PERSON_INTENT);
  const intentOrCall = fixed([...FIRST_PERSON_INTENT, ...CALLS_TO_ACT]);
  const violentVerbs = fixed(VIOLENT_VERBS);
  const groups = new AnyOf(people(GROUPS), demonyms);
  const targets = new AnyOf(people(HUMAN_TARGETS), groups);
  const harmlessObjects = fixed(HARMLESS_OBJECTS);
  const help = fixed(HELP);
  const publicFigures = fixed(PUBLIC_FIGURES, true);
  const titles = fixed(TITLES);
  const scamAwareness = fixed(SCAM_AWARENESS);
  const games = fixed(GAMES);

  return [
    {
      category: 'sexual_minors',
      anchor: nouns(phrases('jailbait, lolicon, shotacon')),
      reason: (m) => `it uses ${quote(m)}, a term that sexualises minors`,
    },
    {
      category: 'sexual_minors',
      anchor: fixed(phrases('nude, naked, topless, sexy, erotic')),
      after: [{ match: minors, maxGap: 0 }],
      exemptIn: reporting,
      reason: (m) => `it describes minors sexually (${quote(m)})`,
    },
    {
      category: 'sexual_minors',
      anchor: sexualActs,
      alsoIn: minors,
      exemptIn: reporting,
      reason: (_m, a) => `it puts sexual content (${quote(a)}) in the same sentence as minors`,
    },
    {
      category: 'sexual_minors',
      anchor: sexualActs,
      alsoIn: under18,
      exemptIn: reporting,
      reason: (_m, a) => `it puts sexual content (${quote(a)}) in the same sentence as an age under 18`,
    },
    {
      category: 'sexual',
      anchor: new AnyOf(
        sexSlang,
        nouns(
          phrases(
            'sexual services, escort service, happy ending massage, sex for money, send nudes, sell nudes',
          ),
        ),
      ),
      reason: (m) => `it contains explicit sexual language (${quote(m)})`,
    },
    {
      category: 'sexual',
      anchor: fixed(
        phrases(`fuck, have sex with, sleep with, make love to, suck, lick, strip for, get naked for,
          get naked with, undress for`),
      ),
      before: [
        {
          match: fixed([
            ...FIRST_PERSON_INTENT,
            ...phrases('let me, i need to, i would like to, i can not wait to, come'),
          ]),
          maxGap: 1,
        },
      ],
      after: [{ match: fixed(['you', 'me']), maxGap: 0 }],
      negatable: true,
      reason: (m) => `it has the presenter proposition the viewer sexually (${quote(m)})`,
    },
    {
      category: 'sexual',
      anchor: nouns(phrases('porn, porno, pornography, xxx, onlyfans, sex video, sex tape')),
      before: [
        {
          match: fixed(
            phrases(
              'watch, download, stream, see, check out, subscribe to, click for, visit, join, buy, free',
            ),
          ),
          maxGap: 2,
        },
      ],
      exemptIn: reporting,
      reason: (m) => `it promotes pornographic content (${quote(m)})`,
    },
    {
      category: 'violent_threats',
      anchor: violentVerbs,
      before: [{ match: intent, maxGap: 1 }],
      after: [{ match: targets, maxGap: 0 }],
      notFollowedBy: harmlessObjects,
      negatable: true,
      exemptIn: games,
      reason: (m) => `it has the presenter threaten violence (${quote(m)})`,
    },
    {
      // Photographers and film crews shoot people too: only with a weapon or death in the sentence.
      category: 'violent_threats',
      anchor: fixed(['shoot', 'shoot up']),
      before: [{ match: intentOrCall, maxGap: 1 }],
      after: [{ match: targets, maxGap: 2 }],
      alsoIn: nouns(WEAPON_CUES),
      notFollowedBy: harmlessObjects,
      negatable: true,
      exemptIn: games,
      reason: (m) => `it threatens or calls for a shooting (${quote(m)})`,
    },
    {
      category: 'violent_threats',
      anchor: violentVerbs,
      before: [{ match: fixed(CALLS_TO_ACT), maxGap: 1 }],
      after: [{ match: targets, maxGap: 2 }],
      notFollowedBy: harmlessObjects,
      negatable: true,
      exemptIn: games,
      reason: (m) => `it calls for violence against people (${quote(m)})`,
    },
    {
      category: 'violent_threats',
      anchor: fixed(PLACE_ATTACKS),
      before: [{ match: intentOrCall, maxGap: 1 }],
      after: [{ match: nouns(INSTITUTIONS), maxGap: 2 }],
      negatable: true,
      exemptIn: games,
      reason: (m) => `it threatens or calls for an attack on a place (${quote(m)})`,
    },
    {
      category: 'violent_threats',
      anchor: fixed(['death to']),
      after: [{ match: new AnyOf(groups, countries, people(DEATH_TO_TARGETS)), maxGap: 1 }],
      reason: (m) => `it calls for death (${quote(m)})`,
    },
    {
      category: 'self_harm',
      anchor: fixed(SELF_HARM_TELLS),
      negatable: true,
      exemptIn: help,
      reason: (m) => `it encourages self-harm (${quote(m)})`,
    },
    {
      category: 'self_harm',
      anchor: fixed(SELF_HARM_ACTS),
      before: [{ match: fixed(SELF_HARM_FRAMES), maxGap: 1 }],
      notFollowedBy: fixed(SELF_HARM_IDIOM_TAILS),
      negatable: true,
      exemptIn: help,
      reason: (m) => `it encourages or explains self-harm (${quote(m)})`,
    },
    {
      category: 'hate',
      anchor: nouns(SLURS),
      reason: (m) => `it contains a slur (${quote(m)})`,
    },
    {
      category: 'hate',
      anchor: nouns(DEHUMANISING),
      before: [
        { match: fixed(COPULAS), maxGap: 0 },
        { match: groups, maxGap: 3 },
      ],
      exemptIn: new AnyOf(fixed(QUOTING), reporting),
      reason: (m) => `it dehumanises people for who they are (${quote(m)})`,
    },
    {
      category: 'hate',
      anchor: fixed(ELIMINATIONIST),
      before: [{ match: groups, maxGap: 3 }],
      exemptIn: new AnyOf(fixed(QUOTING), reporting),
      reason: (m) => `it wishes death or removal on people for who they are (${quote(m)})`,
    },
    {
      category: 'impersonation',
      anchor: publicFigures,
      before: [{ match: fixed(SELF_INTRO), maxGap: 0 }],
      reason: (_m, a) => `the presenter would claim to be ${a}, a real public figure`,
    },
    {
      category: 'impersonation',
      anchor: publicFigures,
      before: [{ match: fixed(['this is']), maxGap: 0 }],
      after: [{ match: fixed(phrases('speaking, here, calling, talking, and i')), maxGap: 0 }],
      reason: (_m, a) => `the presenter would claim to be ${a}, a real public figure`,
    },
    {
      category: 'impersonation',
      anchor: titles,
      before: [{ match: fixed(phrases('i am, my name is, this is')), maxGap: 0 }],
      after: [{ match: new Pattern(/^\s+\p{Lu}[\p{L}-]*/u, 1, () => true, true), maxGap: 0 }],
      reason: (m) => `the presenter would claim a public office (${quote(m)})`,
    },
    {
      category: 'impersonation',
      anchor: fixed(PUBLIC_OFFICES),
      before: [{ match: fixed(phrases('i am your, this is your')), maxGap: 1 }],
      reason: (m) => `the presenter would claim a public office (${quote(m)})`,
    },
    {
      category: 'impersonation',
      anchor: fixed([...TITLES, ...ROYAL_TITLES]),
      before: [{ match: fixed(phrases('i am the, this is the')), maxGap: 1 }],
      after: [
        { match: fixed(['of']), maxGap: 0 },
        { match: countries, maxGap: 1 },
      ],
      reason: (m) => `the presenter would claim a public office (${quote(m)})`,
    },
    {
      category: 'impersonation',
      anchor: fixed(OFFICIAL_BODIES),
      before: [
        { match: fixed(phrases('from, on behalf of, of, with')), maxGap: 2 },
        { match: fixed(SPEAKER_ROLES), maxGap: 0 },
        { match: fixed(phrases('this is, i am, we are, this message is, this call is')), maxGap: 2 },
      ],
      reason: (m) => `the presenter would speak for an official body (${quote(m)})`,
    },
    {
      category: 'impersonation',
      anchor: fixed(OFFICIAL_BODIES),
      before: [
        {
          match: fixed(phrases('i am with, we are with, i am calling from, we are calling from')),
          maxGap: 1,
        },
      ],
      reason: (m) => `the presenter would speak for an official body (${quote(m)})`,
    },
    {
      category: 'fraud',
      anchor: nouns(INVESTMENT_GAINS),
      before: [{ match: fixed(GUARANTEES), maxGap: 4 }],
      notPrecededBy: fixed(
        phrases('will, would, to, can, shall, may, might, must, should, you, we, they, i, and, or'),
      ),
      notFollowedBy: fixed(NOT_INVESTMENT_RETURNS),
      negatable: true,
      exemptIn: new AnyOf(scamAwareness, fixed(RETAIL)),
      reason: (m) => `it promises guaranteed investment returns (${quote(m)})`,
    },
    {
      category: 'fraud',
      anchor: fixed(GUARANTEED_TO_PAY),
      after: [{ match: MONEY, maxGap: 2 }],
      negatable: true,
      exemptIn: scamAwareness,
      reason: (m) => `it promises guaranteed investment returns (${quote(m)})`,
    },
    {
      category: 'fraud',
      anchor: fixed(MULTIPLY_MONEY),
      after: [{ match: fixed(SHORT_TIMES), maxGap: 1 }],
      negatable: true,
      exemptIn: scamAwareness,
      reason: (m) => `it promises to multiply viewers' money quickly (${quote(m)})`,
    },
    {
      category: 'fraud',
      anchor: nouns(CREDENTIALS),
      before: [
        { match: fixed(['your']), maxGap: 2 },
        { match: fixed(DISCLOSE), maxGap: 2 },
      ],
      notFollowedBy: fixed(CREDENTIAL_TOOLS),
      negatable: true,
      exemptIn: scamAwareness,
      reason: (_m, a) => `it asks viewers for their ${a.toLowerCase()}`,
    },
    {
      category: 'fraud',
      anchor: nouns(GIVEAWAYS),
      negatable: true,
      exemptIn: scamAwareness,
      reason: (m) => `it describes a send-money-get-more-back giveaway (${quote(m)})`,
    },
    {
      category: 'fraud',
      anchor: new Pattern(/(?<![\p{L}\p{N}])(?:(?:2|3|5|10)x back|back (?:2|3|5|10)x)(?![\p{L}\p{N}])/iu, 2),
      negatable: true,
      exemptIn: scamAwareness,
      reason: (m) => `it describes a send-money-get-more-back giveaway (${quote(m)})`,
    },
  ];
}

let rules: Rule[] | undefined;

/**
 * The local policy's verdict on a script: the first rule it breaks, in the order of SCRIPT_POLICY_CATEGORIES
 * (most severe first), with the sentence that broke it.
 */
export function checkScriptLocally(text: string): LocalScriptVerdict {
  rules ??= compileRules();
  const sentences = splitSentences(text).map((s) => new Sentence(s));
  for (const rule of rules) {
    for (const sentence of sentences) {
      const match = matchRule(rule, sentence);
      if (match) {
        const { category } = rule;
        return { allowed: false, category, reason: match.reason, excerpt: excerptOf(sentence, match) };
      }
    }
  }
  return { allowed: true };
}
