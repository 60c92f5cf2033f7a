// The material motivational quotes are composed from: themes with their own vocabulary, and sentence
// patterns written for this service. Slot grammar, so any theme fits any pattern:
// - act: a base-form verb phrase that reads after "you", "to" and as a command ("show up when ...").
// - struggle: a singular noun phrase with its determiner ("the setback").
// - reward: a singular noun phrase ("quiet confidence").
// - excuse: what people wait for ("the perfect moment").
// - comfort: what people trade their goals for ("another snooze").
// - virtue: the theme's quality as a mass noun ("discipline").

export const QUOTE_THEMES = [
  'discipline',
  'resilience',
  'growth',
  'courage',
  'focus',
  'patience',
  'consistency',
  'self_belief',
] as const;
export type QuoteThemeName = (typeof QUOTE_THEMES)[number];

export interface QuoteTheme {
  virtue: string;
  acts: readonly string[];
  struggles: readonly string[];
  rewards: readonly string[];
  excuses: readonly string[];
  comforts: readonly string[];
  /** Words that show a sent quote is about this theme. */
  cues: readonly string[];
}

export const THEMES: Record<QuoteThemeName, QuoteTheme> = {
  discipline: {
    virtue: 'discipline',
    acts: [
      'show up even when it is inconvenient',
      'do the hard thing first',
      'keep the promise you made to yourself',
      'train when nobody is watching',
      'get up on the first alarm',
    ],
    struggles: ['the tired morning', 'the voice that says skip it today', 'the long week'],
    rewards: ['the body you are working for', 'freedom', 'the life you keep picturing', 'real self respect'],
    excuses: ['motivation', 'the perfect Monday', 'a better mood'],
    comforts: ['another snooze', 'the easy way out', 'a comfortable excuse'],
    cues: [
      'discipline',
      'habit',
      'routine',
      'alarm',
      'train',
      'training',
      'workout',
      'gym',
      'sweat',
      'rep',
      'reps',
      'early',
    ],
  },
  resilience: {
    virtue: 'resilience',
    acts: [
      'stand back up',
      'try one more time',
      'keep walking through it',
      'learn from the fall and keep moving',
    ],
    struggles: ['this setback', 'the rejection', 'the hardest year', 'the door that closed'],
    rewards: ['the comeback', 'a strength nobody can take from you', 'a second wind'],
    excuses: ['things to get easier', 'someone to rescue you'],
    comforts: ['quitting early', 'the safety of never trying again'],
    cues: [
      'fall',
      'fail',
      'failure',
      'setback',
      'rise',
      'storm',
      'scars',
      'broken',
      'comeback',
      'resilience',
      'quit',
      'survive',
    ],
  },
  growth: {
    virtue: 'growth',
    acts: [
      'learn something new',
      'ask the question you are afraid to ask',
      'practice the skill you are worst at',
      'stay a beginner a little longer',
    ],
    struggles: ['the awkward beginning', 'being bad at something new', 'the mistake you made yesterday'],
    rewards: ['mastery', 'a better version of your life', 'a bigger life'],
    excuses: ['talent', 'the right time'],
    comforts: ['staying where it is safe', 'looking clever'],
    cues: [
      'grow',
      'growth',
      'learn',
      'learning',
      'better',
      'improve',
      'beginner',
      'practice',
      'progress',
      'mistake',
      'mistakes',
    ],
  },
  courage: {
    virtue: 'courage',
    acts: [
      'say yes before you feel brave',
      'make the call you keep avoiding',
      'take the first step scared',
      'speak up',
    ],
    struggles: ['the fear', 'the doubt in your chest', 'the fear of looking foolish'],
    rewards: ['the life on the other side of fear', 'freedom', 'a story worth telling'],
    excuses: ['the fear to disappear', 'a guarantee', 'permission'],
    comforts: ['the comfort of the sidelines', 'playing small'],
    cues: ['fear', 'afraid', 'brave', 'courage', 'risk', 'bold', 'scared', 'leap', 'dare'],
  },
  focus: {
    virtue: 'focus',
    acts: [
      'put the phone down and do the work',
      'finish what you started',
      'protect your first hour',
      'say no to what does not matter',
    ],
    struggles: ['the noise', 'the distraction', 'the pull of the easy task'],
    rewards: ['deep work', 'the goal you wrote down', 'work that speaks for itself'],
    excuses: ['a quieter day', 'more time'],
    comforts: ['one more scroll', 'busy work that only feels productive'],
    cues: [
      'focus',
      'distraction',
      'distractions',
      'phone',
      'attention',
      'noise',
      'priority',
      'priorities',
      'goal',
      'goals',
    ],
  },
  patience: {
    virtue: 'patience',
    acts: [
      'plant today and trust the season',
      'keep watering the seed',
      'stay with it a little longer',
      'do the work without checking the clock',
    ],
    struggles: ['the slow progress', 'the waiting', 'the quiet middle of the journey'],
    rewards: ['the harvest', 'a result that lasts', 'strong roots'],
    excuses: ['overnight success', 'instant results'],
    comforts: ['a shortcut', 'quick applause'],
    cues: [
      'patience',
      'patient',
      'wait',
      'waiting',
      'slow',
      'seed',
      'season',
      'time',
      'trust',
      'calm',
      'stoic',
    ],
  },
  consistency: {
    virtue: 'consistency',
    acts: ['show up again', 'show up for ten minutes', 'repeat the basics', 'keep the streak alive'],
    struggles: ['the boring day', 'the plateau', 'the day nothing seems to change'],
    rewards: ['compound growth', 'a reputation you earned', 'momentum'],
    excuses: ['inspiration', 'a fresh start on Monday'],
    comforts: ['starting over every week', 'an all or nothing plan'],
    cues: [
      'consistent',
      'consistency',
      'daily',
      'every day',
      'streak',
      'repeat',
      'again',
      'hustle',
      'grind',
      'work',
    ],
  },
  self_belief: {
    virtue: 'belief in yourself',
    acts: [
      'back yourself',
      'trust what you have built',
      'stop shrinking to fit the room',
      'believe in the work before anyone else does',
    ],
    struggles: ['the doubt', 'every voice that said you could not', 'the comparison game'],
    rewards: ['quiet confidence', 'the life you were meant to build', 'a name you are proud of'],
    excuses: ['someone else to believe in you first', 'approval'],
    comforts: ['hiding behind maybe', 'playing it safe'],
    cues: [
      'believe',
      'belief',
      'confidence',
      'confident',
      'worth',
      'enough',
      'yourself',
      'doubt',
      'doubters',
      'success',
    ],
  },
};

/** First sentences of a quote: a claim about the theme. */
export const CLAIMS: readonly string[] = [
  '{Reward} does not arrive all at once. It is built every time you {act}.',
  'Nobody claps for the days you {act}. Do it anyway, because those days decide everything.',
  'You are not behind. You are building, and {struggle} is part of the plan.',
  'Stop waiting for {excuse}. {Act}, and let that be enough for today.',
  '{Struggle} is not the end of your story. It is the chapter that makes the ending worth it.',
  'The person you want to become is watching what you do today.',
  '{Virtue} is quiet. It looks like you choosing to {act} while everyone else waits for {excuse}.',
  'You will not always feel ready. {Virtue} means you {act} anyway.',
  'What feels heavy today is training you for {reward}.',
  'The hard part is not the work. It is deciding to {act} before you feel like it.',
  '{Reward} belongs to the people who {act}, especially on the days it feels pointless.',
  'A year from now, you will be glad you chose to {act} today.',
  'You do not need {excuse}. You need one honest decision to {act}.',
];

/** Second sentences: a turn that pushes the claim further. */
export const TURNS: readonly string[] = [
  'Do not trade {reward} for {comfort}.',
  'Let {struggle} teach you, not define you.',
  'Small steps still move you. {Act}, then do it again tomorrow.',
  '{Comfort} will always be there. {Reward} will not wait forever.',
  'Every time you {act}, you prove to yourself who you are.',
  '{Struggle} is loud, but {virtue} is louder.',
  'You have survived every hard day so far. This one is no different.',
];

/** Short last lines, said after the quote itself. */
export const CLOSERS: readonly string[] = [
  'Keep going.',
  'Start today.',
  'Now go prove it to yourself.',
  'One more day. Then one more.',
  'Begin again, right now.',
  'You are closer than you think.',
];

/** Opening lines before the quote; {virtue}/{struggle} hooks are used only when the quote's theme is known. */
export const HOOKS: readonly string[] = [
  'If you needed a sign to keep going, this is it.',
  'Read this before you give up on today.',
  'Save this for the morning you do not want to start.',
  'Somebody needed to hear this today. Maybe it is you.',
  'Before you quit, hear this.',
  'Listen closely if {struggle} has been weighing on you.',
  'A quick reminder about {virtue}.',
  'This one is about {virtue}.',
];
