// Education: opening or hook → key idea → why it matters → concrete points → takeaway.
import { styled, type PurposeLibrary } from './types.ts';

export const education: PurposeLibrary = {
  beats: {
    opening: {
      keep: 0,
      lines: [
        "Here's {question}, in plain words.",
        "Let's break down {question}.",
        "If you've ever wondered {question}, this one's for you.",
        'A quick lesson on {topic}.',
        "Let's make {topic} simple.",
        "This one's for {audience}: {question}.",
        ...styled(['energetic'], "{Question}. Let's go.", 'Quick lesson: {topic}. Ready?'),
        ...styled(
          ['calm'],
          "Let's take a slow, clear look at {question}.",
          "Let's take a quiet minute with {topic}.",
        ),
        ...styled(
          ['inspirational'],
          'Understanding {concept} can change the way you make decisions.',
          "Here's a lesson on {topic} worth carrying with you.",
        ),
        ...styled(
          ['entertaining'],
          'Okay, {question}. Buckle up.',
          'Time for a tiny lesson on {topic}. No boring parts, promise.',
        ),
        ...styled(['educational'], "Today's lesson: {question}.", "Today we're learning about {topic}."),
      ],
    },
    keyIdea: {
      keep: 0,
      lines: [
        { text: '{Claim}.', penalty: 8 },
        'Start with the basics of {topic}.',
        'Start with the core idea: {claim}.',
        'The core idea is simple. {Claim}.',
        "Here's the heart of it: {claim}.",
        '{Claim}. That is the idea everything else builds on.',
        'The goal is to {action} in a way that actually works for you.',
        'Good news: you can learn to {action} without overcomplicating it.',
        'The best way into {topic} is through the basics, so that is where we start.',
        'To understand {concept}, you need a few clear ideas, not a textbook.',
        ...styled(
          ['energetic'],
          'Core idea? {Claim}.',
          'First things first: get the basics of {topic} right.',
        ),
        ...styled(
          ['calm'],
          'At the center of it all is one simple idea: {claim}.',
          'There is no need to rush {topic}. A few clear ideas carry you a long way.',
        ),
        ...styled(
          ['inspirational'],
          "Here's the idea that changes everything: {claim}.",
          'Everyone who is good at {skill} started exactly where you are now.',
        ),
        ...styled(['entertaining'], 'Plot summary: {claim}. The rest is details.'),
      ],
    },
    whyItMatters: {
      keep: 2,
      lines: [
        'Why does this matter? Because {claim}, and that shapes real decisions.',
        'Why should you care? Because understanding {concept} helps you make better decisions, faster.',
        '{Skill} is one of those things that pays off every single time you do it well.',
        'For {audience}, this is not theory. It shows up in everyday choices.',
        ...styled(
          ['calm'],
          'It matters, because {topic} quietly shapes more of our days than we tend to notice.',
        ),
        ...styled(['energetic'], 'Why care? Better understanding, better decisions. Simple.'),
        ...styled(
          ['inspirational'],
          'When you understand {concept}, you stop guessing and start choosing with confidence.',
        ),
      ],
    },
    startSmall: {
      keep: 3,
      lines: [
        '{Nth}, start small. One real attempt at {skill} teaches more than an hour of reading about it.',
        '{Nth}, just begin. Your first try at {skill} does not need to be good; it needs to happen.',
      ],
    },
    feedback: {
      keep: 4,
      lines: [
        '{Nth}, get feedback early.{?skill} Someone else will spot what you missed in your first attempt.',
        '{?skill}{Nth}, show your work to someone you trust, and ask what they would change.',
      ],
    },
    progress: {
      keep: 5,
      lines: [
        '{?skill}{Nth}, keep track of what works, so you can do more of it next time.',
        '{?skill}{Nth}, look back at your last attempt before you start the next one. That is where the improvement hides.',
      ],
    },
    keyTerms: {
      keep: 3,
      lines: [
        '{Nth}, get the basics straight. Everything else about {concept} builds on them.',
        '{Nth}, separate facts from opinions. There is a lot of noise around {concept}.',
      ],
    },
    realDecision: {
      keep: 4,
      lines: [
        '{?concept}{Nth}, connect it to a real decision. It sticks once it is about your own life.',
        '{?concept}{Nth}, apply it to your own situation. Things get clearer the moment they are about you.',
      ],
    },
    revisit: {
      keep: 5,
      lines: [
        '{Nth}, come back to it. A second look at {concept} is often where it finally clicks.',
        '{?concept}{Nth}, give it a little time. Understanding tends to arrive on the second or third pass, not the first.',
      ],
    },
    effect: {
      keep: 3,
      lines: [
        "Look closely at {object}. That's where the effect of {topic} really shows up.",
        'Pay attention to {object}, because that is the part you can actually see changing.',
      ],
    },
    audienceAngle: {
      keep: 4,
      lines: [
        'Think about {audience} in particular. They feel the effect of {topic} more directly than most.',
      ],
    },
    overlook: {
      keep: 5,
      lines: [
        "It's easy to overlook {topic}, and that's exactly why it's worth a closer look.",
        'Most of us rarely stop to think about {topic}. That is a missed opportunity.',
      ],
    },
    honestQuestion: {
      keep: 6,
      lines: ['Ask yourself one honest question: how much attention do you really give {topic}?'],
    },
    basicsGoFar: {
      keep: 6,
      lines: [
        "You don't need to be an expert at {skill}. The basics and a little attention go a long way.",
        "You don't need to be an expert to get {concept} right. The basics and a little attention go a long way.",
      ],
    },
    details: {
      keep: 7,
      lines: [
        'The details matter here. Small choices around {topic} add up over time.',
        'Small details make a big difference, and they are usually the first thing people skip.',
      ],
    },
    quickTakes: {
      keep: 7,
      lines: [
        'Be careful with quick takes. Plenty of what gets said about {topic} skips the part that matters.',
        'A word of caution: not every confident claim you hear holds up when you look closer.',
      ],
    },
    notice: {
      keep: 8,
      lines: [
        "Start paying attention to {topic} this week, and you'll notice things you missed before.",
        'Once you start looking for it, you will notice it far more often than you expected.',
      ],
    },
    obvious: {
      keep: 8,
      lines: [
        'If this feels obvious, good. Obvious things are the easiest to forget when it counts.',
        'None of this needs special talent. It just needs a bit of attention, applied consistently.',
      ],
    },
    mistake: {
      keep: 4,
      lines: [
        'One common mistake? Treating {concept} as something you only need to understand once.',
        'The biggest mistake is assuming you already know {question}.',
        'A common mistake is trying to master {topic} all at once, instead of one step at a time.',
        ...styled(
          ['entertaining'],
          'Classic mistake: nodding along about {topic} while secretly having no idea. We have all been there.',
        ),
      ],
    },
    selfTest: {
      keep: 6,
      lines: [
        "Try this: explain {concept} to a friend in one sentence. If you can, you've got it.",
        'Here is a simple test. If you can explain {question} in one breath, you understand it.',
        ...styled(
          ['calm'],
          'Take a moment and put it into your own words. If it comes out clearly, it has landed.',
        ),
      ],
    },
    recap: {
      keep: 7,
      lines: [
        'To recap: {claim}, and the basics are what make it click.',
        'So, a quick recap: keep it simple, pay attention to the details, and give it time.',
      ],
    },
    takeaway: {
      keep: 1,
      lines: [
        "So here's the takeaway: {claim}.",
        "The takeaway? Understand {concept}, and you'll make better decisions because of it.",
        'So the next time you {action}, start with the basics and build from there.',
        'If you remember one thing, make it this: {claim}.',
        ...styled(
          ['energetic'],
          'Bottom line: {claim}.',
          'Bottom line: learn the basics once, use them forever.',
        ),
        ...styled(['calm'], 'So take it slowly, and let it make sense one piece at a time.'),
        ...styled(
          ['inspirational'],
          'Learn it well, and {topic} becomes something that works for you, not against you.',
        ),
      ],
    },
    analogy: {
      keep: 7,
      lines: [
        'Think of it like learning a new route through a city: confusing at first, then second nature.',
      ],
    },
    confusing: {
      keep: 6,
      lines: [
        'If {topic} has ever felt confusing, that is normal. Most explanations start in the middle instead of the beginning.',
      ],
    },
    oneIdea: {
      keep: 6,
      lines: ['Pick one idea from this video and use it this week. That is how learning sticks.'],
    },
    curious: {
      keep: 8,
      lines: ['Stay curious. The questions you ask about {topic} matter more than the answers you memorize.'],
    },
    teachIt: {
      keep: 7,
      lines: ['And here is a secret: the fastest way to learn {topic} is to teach it to someone else.'],
    },
    patient: {
      keep: 8,
      lines: ['Be patient with yourself. Nobody gets this perfect on the first try.'],
    },
    close: {
      keep: 2,
      lines: [
        'Simple as that.',
        { text: "That's {topic}.", penalty: 6 },
        'Now you know {question}.',
        "And that's {topic}, in a nutshell.",
        "That's {topic}, made simple.",
        ...styled(['entertaining'], 'And that, my friends, is {topic}.'),
        ...styled(['inspirational'], 'Now go put it to work.'),
      ],
    },
  },
  patterns: [
    [
      'opening',
      'keyIdea',
      'whyItMatters',
      'points',
      'startSmall',
      'keyTerms',
      'effect',
      'feedback',
      'realDecision',
      'progress',
      'revisit',
      'audienceAngle',
      'confusing',
      'overlook',
      'analogy',
      'basicsGoFar',
      'details',
      'quickTakes',
      'honestQuestion',
      'mistake',
      'selfTest',
      'obvious',
      'notice',
      'curious',
      'teachIt',
      'patient',
      'oneIdea',
      'recap',
      'takeaway',
      'close',
    ],
    [
      'opening',
      'whyItMatters',
      'keyIdea',
      'effect',
      'points',
      'keyTerms',
      'startSmall',
      'realDecision',
      'feedback',
      'revisit',
      'progress',
      'overlook',
      'confusing',
      'audienceAngle',
      'analogy',
      'details',
      'basicsGoFar',
      'honestQuestion',
      'quickTakes',
      'selfTest',
      'mistake',
      'notice',
      'obvious',
      'teachIt',
      'curious',
      'oneIdea',
      'patient',
      'takeaway',
      'recap',
      'close',
    ],
    [
      'opening',
      'mistake',
      'keyIdea',
      'audienceAngle',
      'points',
      'startSmall',
      'keyTerms',
      'feedback',
      'realDecision',
      'progress',
      'revisit',
      'effect',
      'confusing',
      'overlook',
      'analogy',
      'honestQuestion',
      'basicsGoFar',
      'details',
      'quickTakes',
      'whyItMatters',
      'obvious',
      'selfTest',
      'notice',
      'patient',
      'curious',
      'teachIt',
      'oneIdea',
      'recap',
      'takeaway',
      'close',
    ],
  ],
  pointClause: ['{Nth}, {point}.', "{Nth}, here's a point worth remembering: {point}."],
  pointPhrase: [
    '{Nth}, keep {point} in mind.',
    '{Nth}, think about {point}.',
    "{Nth}, don't overlook {point}.",
  ],
  signoff: [
    'Learn more at {website}.',
    'For more, visit {website}.',
    'There is more to explore at {website}.',
    'Find more from {brand} at {website}.',
  ],
};
