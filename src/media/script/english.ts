// Small hand-made English lexicon and morphology: enough to chunk a brief into noun phrases and verbs
// and to put its words back into sentences grammatically.

export const STOP_WORDS = new Set(
  `a an the and or but nor if then so yet of in on at to for with about from by as into onto over under after
  before between through during without within across around against along among up down out off than too very
  just also only even still really actually quite rather is are was were be been being am do does did doing have
  has had having can could will would should may might must shall not no this that these those it its it's they
  them their theirs we our ours us you your yours i me my mine he him his she her hers what which who whom whose
  why how when where there here some any all each every both few many much more most such own same other another
  one ones something anything everything nothing let's lets get gets got s while because since until though
  although whether once`.split(/\s+/),
);

export const WH_WORDS = new Set(['how', 'why', 'what', 'when', 'where', 'who', 'which']);
export const AUXILIARIES = new Set(
  'is are was were be been am do does did has have had can could will would should may might must shall'.split(
    ' ',
  ),
);
const PRONOUNS = new Set('i you we they he she it people everyone someone anyone'.split(' '));
export const PREPOSITIONS = new Set(
  `of in on at to for with about from by as into onto over under after before between through during without within
  across around against along among via per like beyond toward towards despite`.split(/\s+/),
);
const DETERMINERS = new Set(
  'a an the this that these those your our my their his her its every each some any'.split(' '),
);

const BASE_VERBS =
  `accept achieve acquire act add announce approve adjust affect agree aim allow analyze answer apply approach argue arrange ask
attract avoid balance ban be become begin believe benefit boost break bring build burn buy calculate call
care carry catch cause change check choose clean close collect combine come compare compete complete compound
connect consider contain continue control convert cook cost count create cut deal decide decline define deliver
depend describe design destroy develop die discover do double drink drive drop earn eat affect empower enable
encourage end enjoy expand ensure enter escape explain explore express face fail fall feel fight fill find finish fit fix
focus follow forget form gain generate get give go grow guide handle happen hate have help hide hire hit hold hurt
identify ignore impact improve include increase influence inspire install introduce invest involve join keep kill know
launch lead learn leave let lie lift limit listen live look lose love lower maintain make manage matter mean
measure meet miss motivate move need notice offer open operate organize outperform own pay perform pick plan play
prefer prepare prevent produce promote protect prove provide pull push put raise reach react read reduce
reflect release remain remember remove repair replace report require rest restore return reveal ride rise run
save say scale see seek sell send serve set shape share shift ship show shrink sign simplify sit sleep slow
solve speak spend stand start stay steal stop store struggle study succeed suffer suggest support survive switch
surge take talk teach tell test think thrive track trade train transform travel treat trust try turn understand unlock
unveil update use value wait wake walk want waste watch win wish work worry write`.split(/\s+/);

const IRREGULAR: Record<string, string[]> = {
  be: ['is', 'are', 'was', 'were', 'been', 'being', 'am'],
  become: ['became'],
  begin: ['began', 'begun'],
  break: ['broke', 'broken'],
  bring: ['brought'],
  build: ['built'],
  buy: ['bought'],
  catch: ['caught'],
  choose: ['chose', 'chosen'],
  come: ['came'],
  cut: ['cut'],
  deal: ['dealt'],
  do: ['does', 'did', 'done'],
  drink: ['drank', 'drunk'],
  drive: ['drove', 'driven'],
  eat: ['ate', 'eaten'],
  fall: ['fell', 'fallen'],
  feel: ['felt'],
  fight: ['fought'],
  find: ['found'],
  forget: ['forgot', 'forgotten'],
  get: ['got', 'gotten'],
  give: ['gave', 'given'],
  go: ['goes', 'went', 'gone'],
  grow: ['grew', 'grown'],
  have: ['has', 'had'],
  hide: ['hid', 'hidden'],
  hit: ['hit'],
  hold: ['held'],
  hurt: ['hurt'],
  keep: ['kept'],
  know: ['knew', 'known'],
  lead: ['led'],
  leave: ['left'],
  let: ['let'],
  lose: ['lost'],
  make: ['made'],
  mean: ['meant'],
  meet: ['met'],
  pay: ['paid'],
  put: ['put'],
  read: ['read'],
  ride: ['rode', 'ridden'],
  rise: ['rose', 'risen'],
  run: ['ran'],
  say: ['said'],
  see: ['saw', 'seen'],
  seek: ['sought'],
  sell: ['sold'],
  send: ['sent'],
  set: ['set'],
  shrink: ['shrank', 'shrunk'],
  sit: ['sat'],
  sleep: ['slept'],
  speak: ['spoke', 'spoken'],
  spend: ['spent'],
  stand: ['stood'],
  steal: ['stole', 'stolen'],
  take: ['took', 'taken'],
  teach: ['taught'],
  tell: ['told'],
  think: ['thought'],
  understand: ['understood'],
  wake: ['woke', 'woken'],
  win: ['won'],
  write: ['wrote', 'written'],
};

const DOUBLING = new Set(
  'begin forget occur prefer refer admit commit control permit regret submit equip upset compel'.split(' '),
);

function isVowel(c: string | undefined): boolean {
  return c !== undefined && 'aeiou'.includes(c);
}

/** Short verbs ending consonant-vowel-consonant double their last letter: run → running, stop → stopped. */
function doublesFinal(verb: string): boolean {
  if (DOUBLING.has(verb)) return true;
  const n = verb.length;
  if (n < 3 || n > 4) return false;
  const [a, b, c] = [verb[n - 3], verb[n - 2], verb[n - 1]];
  return !isVowel(a) && isVowel(b) && !isVowel(c) && !'wxy'.includes(c!) && (n === 3 || !isVowel(verb[0]));
}

export function thirdPerson(verb: string): string {
  if (verb === 'be') return 'is';
  if (verb === 'have') return 'has';
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

export function pastForm(verb: string): string {
  if (/e$/.test(verb)) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  if (doublesFinal(verb)) return `${verb}${verb.at(-1)}ed`;
  return `${verb}ed`;
}

export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v === 'be') return 'being';
  if (/ie$/.test(v)) return `${v.slice(0, -2)}ying`;
  if (/(ee|ye|oe)$/.test(v)) return `${v}ing`;
  if (/[^aeiou]e$/.test(v) || /ue$/.test(v)) return `${v.slice(0, -1)}ing`;
  if (doublesFinal(v)) return `${v}${v.at(-1)}ing`;
  return `${v}ing`;
}

interface VerbForm {
  base: string;
  form: 'base' | 'third' | 'past' | 'gerund';
}

const VERB_FORMS = new Map<string, VerbForm>();
for (const base of BASE_VERBS) {
  VERB_FORMS.set(base, { base, form: 'base' });
  VERB_FORMS.set(thirdPerson(base), { base, form: 'third' });
  VERB_FORMS.set(pastForm(base), { base, form: 'past' });
  VERB_FORMS.set(gerund(base), { base, form: 'gerund' });
  for (const f of IRREGULAR[base] ?? []) {
    VERB_FORMS.set(f, { base, form: /s$/.test(f) && f !== 'was' ? 'third' : 'past' });
  }
}

/** The verb a word is a form of, if the lexicon knows it. */
export function verbForm(word: string): VerbForm | undefined {
  return VERB_FORMS.get(word.toLowerCase());
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}
export function isPronoun(word: string): boolean {
  return PRONOUNS.has(word.toLowerCase());
}
export function isDeterminer(word: string): boolean {
  return DETERMINERS.has(word.toLowerCase());
}
export function isPreposition(word: string): boolean {
  return PREPOSITIONS.has(word.toLowerCase());
}

/** Nouns that end in -s but take a singular verb. */
const SINGULAR_S = new Set(
  `news physics economics mathematics maths politics ethics athletics gymnastics logistics analytics
  statistics business fitness wellness happiness success stress access progress process bus gas class glass
  series species basis crisis analysis thesis diagnosis bitcoin us this`.split(/\s+/),
);

const PEOPLE = new Set(
  `people athletes teams founders students parents beginners kids children teens teenagers developers
  designers marketers freelancers creators owners families seniors managers employees nurses doctors
  teachers investors traders runners women men professionals startups businesses companies brands shoppers
  customers users readers homeowners renters travelers travellers drivers gamers musicians artists writers
  leaders entrepreneurs coaches players fans patients clients buyers sellers dads moms mothers fathers adults
  retirees newcomers graduates engineers agencies nonprofits organizations communities friends couples pets
  dogs cats gardeners cooks chefs bakers lifters swimmers cyclists climbers hikers musicians podcasters`.split(
    /\s+/,
  ),
);

/** Whether a noun phrase names a group of people, the typical audience of a brief ("for remote teams"). */
export function isPeopleGroup(phrase: string): boolean {
  const head = headNoun(phrase).toLowerCase();
  return PEOPLE.has(head) || /(ers|ors|ists|ians)$/.test(head);
}

/** The head of a noun phrase: its last word before a preposition or relative clause. */
export function headNoun(phrase: string): string {
  const words = phrase.split(/\s+/).filter(Boolean);
  const cut = words.findIndex((w, i) => i > 0 && (isPreposition(w) || /^(that|which|who)$/i.test(w)));
  const core = cut > 0 ? words.slice(0, cut) : words;
  return (core.at(-1) ?? '').replace(/[^\p{L}\p{N}'-]/gu, '');
}

/** Whether a noun phrase takes a plural verb. Gerund phrases and names are singular. */
export function isPluralPhrase(phrase: string): boolean {
  const words = phrase.split(/\s+/).filter(Boolean);
  const first = words[0]?.toLowerCase() ?? '';
  if (/ing$/.test(first) && words.length > 1 && verbForm(first)?.form === 'gerund') return false;
  if (/^(these|those|both|many|several|few)$/.test(first)) return true;
  if (/\band\b/i.test(phrase) && !/\bof\b/i.test(phrase)) return true;
  const head = headNoun(phrase);
  const lower = head.toLowerCase();
  if (/^\p{Lu}/u.test(head) && !/^\p{Lu}+s?$/u.test(head) && words.length === 1) return false;
  if (SINGULAR_S.has(lower) || /(ss|us|is|ics)$/.test(lower)) return false;
  if (/^(people|children|men|women|data|media|teeth|feet|mice)$/.test(lower)) return true;
  return /s$/.test(lower);
}

export function pluralize(noun: string): string {
  const words = noun.split(' ');
  const last = words.pop() ?? '';
  let plural: string;
  if (/[^aeiou]y$/i.test(last)) plural = `${last.slice(0, -1)}ies`;
  else if (/(s|sh|ch|x|z)$/i.test(last)) plural = `${last}es`;
  else plural = `${last}s`;
  return [...words, plural].join(' ');
}

/** "a" or "an" before a phrase, by its sound: "an app", "a user", "an SEO tool", "a one-off". */
export function withArticle(phrase: string): string {
  const first = phrase.split(/[\s-]/)[0] ?? '';
  const lower = first.toLowerCase();
  let an: boolean;
  if (/^\p{Lu}{2,}$/u.test(first)) an = /^[AEFHILMNORSX]/.test(first);
  else if (/^(hour|honest|honor|heir)/.test(lower)) an = true;
  else if (/^(uni|use|usu|uti|eu|one|once|ur)/.test(lower)) an = false;
  else if (/^\d/.test(lower)) an = /^(8|11|18|80)/.test(lower);
  else an = /^[aeiou]/.test(lower);
  return `${an ? 'an' : 'a'} ${phrase}`;
}

const SMALL_NUMBERS = 'zero one two three four five six seven eight nine ten eleven twelve'.split(' ');
export function numberWord(n: number): string {
  return SMALL_NUMBERS[n] ?? String(n);
}
export function wordNumber(word: string): number | undefined {
  const i = SMALL_NUMBERS.indexOf(word.toLowerCase());
  if (i >= 0) return i;
  return /^\d+$/.test(word) ? Number(word) : undefined;
}

/** Words written with a fixed casing wherever they appear. */
const FIXED_CASE = new Map(
  `AI API APIs SEO ROI CEO CTO CFO NFT NFTs USA UK EU US UN NASA NBA NFL FIFA ETF ETFs IRA IRAs SaaS B2B B2C CRM
  HR PR UX UI iPhone iPad iOS macOS Android TikTok YouTube Instagram Facebook LinkedIn WhatsApp Snapchat Pinterest
  Reddit Google Gmail Excel PowerPoint Microsoft Apple Amazon Netflix Spotify Tesla Bitcoin Ethereum ChatGPT
  OpenAI Shopify Etsy eBay PayPal Zoom Slack Notion Figma GitHub JavaScript TypeScript Python Monday Tuesday
  Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October
  November December English Spanish French German Olympics COVID DIY`
    .split(/\s+/)
    .map((w) => [w.toLowerCase(), w] as const),
);

/** The casing a word should have mid-sentence, where the lexicon fixes it (acronyms, brands, names). */
export function fixedCase(word: string): string | undefined {
  return FIXED_CASE.get(word.toLowerCase());
}

/** Common words that open briefs: capitalized only because they start a sentence. */
const COMMON_OPENERS = new Set(
  `best better good great new simple easy quick healthy smart top big small hidden real true common key
  essential important daily weekly morning evening night home work money time life health food sleep water
  interest mental physical personal remote modern future ultimate complete beginner beginners basic basics
  everyday productive effective successful rich poor cheap free fast slow long short high low strong weak
  young old first last next early late little secret surprising science history benefits ways tips reasons
  habits mistakes steps signs things facts myths`.split(/\s+/),
);

/** Whether the capitalized first word of a sentence is an ordinary word rather than a name. */
export function isOrdinaryOpener(word: string): boolean {
  const lower = word.toLowerCase();
  return (
    STOP_WORDS.has(lower) ||
    WH_WORDS.has(lower) ||
    COMMON_OPENERS.has(lower) ||
    verbForm(lower) !== undefined ||
    /(ing|tion|sion|ness|ment|ity|ance|ence|ism|ful|less|ous|ive|able|ible|al)$/.test(lower)
  );
}

export function capitalize(text: string): string {
  return text.replace(/^(\P{L}*)(\p{L})/u, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

const TITLE_SMALL = new Set(
  'a an the and but or nor for of in on at to by as vs via with from into'.split(' '),
);

/** Title Case that keeps acronyms and mixed-case names and leaves short function words lowercase. */
export function titleCase(text: string): string {
  const words = text.split(' ');
  return words
    .map((w, i) => {
      if (/\p{Lu}/u.test(w.slice(1)) || /\d/.test(w) || /\.\p{L}/u.test(w)) return w;
      const lower = w.toLowerCase();
      const afterColon = i > 0 && words[i - 1]!.endsWith(':');
      if (i > 0 && i < words.length - 1 && !afterColon && TITLE_SMALL.has(lower.replace(/\W/g, '')))
        return lower;
      return w
        .split('-')
        .map((part) => capitalize(part))
        .join('-');
    })
    .join(' ');
}
