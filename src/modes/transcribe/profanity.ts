// filter_profanity: profane words are masked as their first letter and one asterisk per further letter
// ("f***"), keeping punctuation and the word's length, in the transcript text, its words and every file.

/** Stems matched as whole words, alone or with the usual English endings (see ENDINGS). */
const STEMS = [
  'arse',
  'arsehole',
  'ass',
  'asshole',
  'bastard',
  'bitch',
  'bollock',
  'bullshit',
  'cock',
  'crap',
  'cunt',
  'damn',
  'dick',
  'dickhead',
  'dumbass',
  'fuck',
  'goddamn',
  'jackass',
  'motherfuck',
  'piss',
  'prick',
  'shit',
  'slut',
  'twat',
  'wanker',
  'whore',
];

const ENDINGS = ['', 's', 'es', 'ed', 'er', 'ers', 'ing', 'in', 'y', 'ty', 'head', 'heads'];

const PROFANE = new Set(STEMS.flatMap((stem) => ENDINGS.map((ending) => stem + ending)));

/** Letters with inner apostrophes ("fuckin'" keeps its apostrophe outside the match). */
const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;

export function isProfane(word: string): boolean {
  return PROFANE.has(word.toLowerCase().replace(/['’]/g, ''));
}

function mask(word: string): string {
  const [first = '', ...rest] = [...word];
  return first + rest.map((ch) => (/\p{L}/u.test(ch) ? '*' : ch)).join('');
}

/** The text with each profane word masked; everything else unchanged. */
export function maskProfanity(text: string): string {
  return text.replace(WORD, (word) => (isProfane(word) ? mask(word) : word));
}
