import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScriptLocally, SCRIPT_POLICY_CATEGORIES, type ScriptPolicyCategory } from './script-policy.ts';

/** Ordinary business, education, news, health and how-to scripts, many with words the rules look for. */
const BENIGN = [
  "Here's how our sales team plans to kill the competition this quarter: faster onboarding and honest pricing.",
  'Today we shoot a video in the studio, then we execute the plan we wrote last week.',
  "We'll shoot you an email with the slides, and I'll shoot them a text when it's live.",
  'Our photographer will shoot the kids’ portraits in the morning.',
  'We shot them in natural light for the catalogue.',
  'Go shoot some hoops with your friends this weekend.',
  'October is breast cancer awareness month, so book your screening today.',
  'Therapy for depression works best when you start early and keep going.',
  "If you're struggling, please call the 988 Suicide and Crisis Lifeline. You are not alone.",
  "Stretch before you lift so you don't hurt yourself.",
  'Cut yourself some slack: nobody gets everything right on the first try.',
  'How to cut yourself a slice of cake without crumbs.',
  'How do I end my life insurance policy early?',
  "It's time to end your life of debt with a simple budget.",
  'Take your own life back from your inbox with these filters.',
  'The dangers of thinspo content are real, experts warn.',
  'This workout will kill you, in the best way.',
  "I'm going to kill it on stage tonight.",
  "Let's blow you away with our new product launch.",
  "We're going to attack the problem from three angles.",
  'We should kill this feature and focus on the core product.',
  'You need to kill your darlings when you edit a novel.',
  'Time to kill some time before the game starts.',
  'Our CRM helps you execute campaigns and kill busywork.',
  "We're going to hurt our competitors' margins.",
  'I will hurt your feelings with this honest review.',
  'The war left thousands dead, and the rebuilding will take decades.',
  'Death to boring slide decks!',
  'Never share your password or seed phrase with anyone, not even us.',
  'We will never ask you to send your PIN code or your verification code.',
  "Scammers will ask you to send your seed phrase; that's the biggest red flag.",
  'Enter your password to log in, then click Settings.',
  'Use a password manager and share your password manager vault with family safely.',
  'Give your password a strength check with our free tool.',
  'Send me your pin on the map so I can find the café.',
  'Our savings account has no hidden fees, and your money is insured.',
  'Satisfaction guaranteed, free returns within 30 days.',
  'There are no guaranteed returns in investing, so diversify.',
  'Beware of anyone promising guaranteed returns: that is a Ponzi red flag.',
  'We guarantee a return call within 24 hours.',
  "We guarantee you'll return for more.",
  'Guaranteed profit margins for our resellers, with free shipping.',
  'This course is guaranteed to make you smile.',
  'The guaranteed minimum income pilot starts in March.',
  'Investors want a return on their investment, and we deliver it with transparent reporting.',
  'How to double your money in ten years with index funds and patience.',
  'Double your productivity with these three habits.',
  'The FBI warns about fake crypto giveaways on social media.',
  'Tell your friends about our giveaway!',
  'Bitcoin hit a new high today as traders piled in.',
  'The IRS announced new tax brackets for next year, and here is what that means for you.',
  'Elon Musk said on Tuesday that Tesla will open a new factory.',
  "I'm Taylor Swift's biggest fan, and this is my review of her new album.",
  'Gordon Ramsay’s recipe for beef Wellington is easier than it looks.',
  "Hi, I'm Sarah, and I run a small bakery in Leeds.",
  'My name is David Chen and I teach data science.',
  'Hello, I am Mike Johnson, a plumber from Ohio.',
  'I am Mark, a personal trainer, and today we train legs.',
  'I am the president of our local chess club, and we meet every Thursday.',
  'This is the president of our company, Anna Li.',
  'She is a senior vice president at a logistics company.',
  'I am your host for tonight’s show.',
  "This is your captain speaking: we're starting our descent.",
  "I'm the queen of sourdough.",
  'This is a message from the Acme Corp support team about our new features.',
  "I'm with the marketing team at Acme.",
  "I'm a nurse and I work for the NHS.",
  'The president signed the bill into law on Friday.',
  'The Pope visited Portugal this summer.',
  'Police arrested a man accused of sharing child sexual abuse material, the court heard.',
  'Talk to your kids about online safety and how to report anything that makes them uncomfortable.',
  'Sex education helps teenagers make safe choices, studies show.',
  'Parents should explain puberty to their kids in an age-appropriate way.',
  'Teens who watch porn report more anxiety, a study found.',
  'See how the new law changes the porn industry.',
  'Kids can see Saturn with the naked eye this week.',
  'Our new nude lipstick shades are perfect for teens and adults alike.',
  'Make math sexy for kids with these games.',
  'Every 12-year-old should learn to cook one healthy meal.',
  'Our teen coding camp teaches Python in five days.',
  'The hospital opened a new children’s wing this week.',
  'Women in tech earn less than men on average, the survey found.',
  'Immigrants start a quarter of new businesses in the United States.',
  'Immigrants are the backbone of our healthcare system.',
  'Muslims around the world celebrate Eid at the end of Ramadan.',
  'He called immigrants animals, sparking outrage across the country.',
  'Rats are vermin, so seal the gaps around your pipes.',
  'Dogs are animals that need daily exercise.',
  'Teachers are superheroes without capes.',
  'Americans are better at baseball than at cricket.',
  'I need to lick my wounds after that loss.',
  'Suck it up and keep going.',
  'You need to kill the child process first.',
  'Go kill them all in the boss fight tonight!',
  "I am King Charles's biggest fan.",
  'My name is General Lee and I sell cars.',
  "Hi kids, I'm Princess Aurora!",
];

/** Scripts each category must catch, one line each, in several wordings. */
const BLOCKED: Record<ScriptPolicyCategory, string[]> = {
  sexual_minors: [
    'Check out these sexy schoolgirls.',
    'I want to have sex with a 14-year-old.',
    'Send nudes, kids.',
    'Naked teens are waiting for you.',
    'The best jailbait pics online.',
    'Little girls in erotic poses.',
    'Erotic stories about a fifteen year old.',
  ],
  sexual: [
    'Get a blowjob tonight for free.',
    'I want to fuck you so badly.',
    "I'd love to sleep with you tonight.",
    'Subscribe to my OnlyFans for more.',
    'Watch free porn at our site.',
    'We offer discreet escort services downtown.',
  ],
  violent_threats: [
    "I'm going to kill you and your family.",
    'We will murder everyone at that meeting.',
    'I swear I will stab him tomorrow.',
    'Someone should shoot the president in the head with a rifle.',
    "Let's bomb the mosque on Friday.",
    "We're going to blow up the embassy.",
    'Death to all immigrants.',
    'Rise up and slaughter those people.',
  ],
  self_harm: [
    'You should kill yourself.',
    'Here are the best ways to commit suicide without pain.',
    'Go ahead and cut yourself, you deserve it.',
    'How do I kill myself quickly?',
    'Join the pro-ana challenge and stop eating.',
    'Nobody would miss you anyway.',
  ],
  hate: [
    'Immigrants are vermin and should leave.',
    'Muslims are a disease on this country.',
    'All Jews should be exterminated.',
    'Gay people are not human.',
    'Blacks are animals.',
    'Mexicans are nothing but parasites.',
    'Look at that faggot over there.',
  ],
  impersonation: [
    "Hi, I'm Elon Musk, and I'm giving away bitcoin.",
    'I am Joe Biden and I approve this message.',
    'My name is Bill Gates.',
    'This is Taylor Swift speaking, and I have a gift for you.',
    "I'm President Macron and I have an announcement.",
    'I am the Prime Minister of Canada.',
    'I am your president, and this is an emergency broadcast.',
    'I am the Queen of England.',
    "I'm Mayor Adams.",
    'This is an urgent message from the IRS about your tax debt.',
    'I am calling on behalf of the Social Security Administration.',
    "I'm with the IRS and you owe back taxes.",
  ],
  fraud: [
    'Our fund offers guaranteed 20% monthly returns.',
    'This fund is guaranteed to return 15% a year.',
    'Double your money in 24 hours with our trading bot.',
    'Send me your seed phrase to verify your wallet.',
    'Reply with your 6-digit verification code to claim the prize.',
    "DM me your bank login and I'll fix your account.",
    "Send 1 BTC and we'll send you back double.",
    'Send 0.1 ETH and get 2x back instantly.',
    'Join our Bitcoin giveaway today!',
  ],
};

void test('ordinary business, education, news and how-to scripts pass', () => {
  const refused = BENIGN.map((s) => ({ s, v: checkScriptLocally(s) })).filter(({ v }) => !v.allowed);
  assert.deepEqual(refused, []);
  // As one long script too: rules read one sentence at a time, so sentences do not add up.
  assert.deepEqual(checkScriptLocally(BENIGN.join(' ')), { allowed: true });
});

for (const [category, scripts] of Object.entries(BLOCKED)) {
  void test(`${category}: every wording is caught, named by its sentence inside an ordinary script`, () => {
    for (const bad of scripts) {
      const script = `Welcome back to the channel.\n${bad}\nThanks for watching, see you next week.`;
      const verdict = checkScriptLocally(script);
      assert.ok(!verdict.allowed, `not caught: ${bad}`);
      assert.equal(verdict.category, category, `${bad} → ${verdict.reason}`);
      assert.equal(verdict.excerpt, bad);
      assert.ok(verdict.reason.length > 10);
    }
  });
}

void test('every category has a title and a one-line description, and a test above', () => {
  for (const [id, c] of Object.entries(SCRIPT_POLICY_CATEGORIES)) {
    assert.ok(c.title.length > 3 && c.description.length > 40 && !c.description.includes('\n'), id);
    assert.ok((BLOCKED[id as ScriptPolicyCategory] ?? []).length >= 5, id);
  }
});

void test('matching ignores case, number, hyphens, typographic apostrophes and contractions', () => {
  for (const s of [
    'IMMIGRANTS ARE VERMIN.',
    'An immigrant is vermin? No: immigrants are vermin.',
    'SEND ME YOUR SEED-PHRASE.',
    'Send me your seed phrases.',
    'Hi, I’m Elon Musk.',
    'Hi, Im Elon Musk.',
    "I'm gonna kill you.",
    'I will kill you.',
  ])
    assert.equal(checkScriptLocally(s).allowed, false, s);
  // Whole words only.
  assert.deepEqual(checkScriptLocally('Our skill yourself program teaches public speaking.'), {
    allowed: true,
  });
  assert.deepEqual(checkScriptLocally('The Pakistani cricket team won.'), { allowed: true });
});

void test('a negation in the same clause lets a sentence through; across a comma it does not', () => {
  assert.equal(checkScriptLocally('I would never hurt you.').allowed, true);
  assert.equal(checkScriptLocally('Never worry, just send your seed phrase to us.').allowed, false);
  // Hate is not excused by a negation: "not human" is the insult.
  assert.equal(checkScriptLocally('Trans people are not human.').allowed, false);
});

void test('when a script breaks several rules, the most severe category is reported', () => {
  const verdict = checkScriptLocally('Send me your seed phrase.\nI am going to kill you.');
  assert.ok(!verdict.allowed);
  assert.equal(verdict.category, 'violent_threats');
  assert.equal(verdict.excerpt, 'I am going to kill you.');
});

void test('a long sentence is excerpted around the words that broke the rule', () => {
  const filler = 'and we talk about the weather, the markets, the football results and the traffic ';
  const sentence = `${filler.repeat(4)}because I am going to kill you ${filler.repeat(4)}.`;
  const verdict = checkScriptLocally(sentence);
  assert.ok(!verdict.allowed);
  assert.ok(verdict.excerpt.length <= 202, String(verdict.excerpt.length));
  assert.match(verdict.excerpt, /^….*kill you.*…$/);
});

void test('an empty script passes', () => {
  assert.deepEqual(checkScriptLocally(''), { allowed: true });
  assert.deepEqual(checkScriptLocally('  \n '), { allowed: true });
});
