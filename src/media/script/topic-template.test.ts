import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { articleNarration } from '../../modes/article/article-narration.ts';
import { analyzeBrief } from './brief-analysis.ts';
import { scriptBrandContext } from './brand-context.ts';
import { scriptBudget } from './budget.ts';
import { findFigures } from './figures.ts';
import { writeLocalScript } from './local-writer.ts';
import { splitSentences } from './sentences.ts';
import { topicSubject } from './subject.ts';
import { CONTENT_PURPOSES, type ContentStyle, type ScriptInput } from './writer.ts';

// A bare topic gets a short script that names it, asks the viewer and closes: never a tip, a step, a figure
// or a fact the brief did not bring.

const SUBJECTS: [topic: string, subject: string][] = [
  ['Three tips for better sleep', 'better sleep'],
  ['How to start running', 'how to start running'],
  ['Why cats purr', 'why cats purr'],
  ['best budget laptops 2026', 'the best budget laptops of 2026'],
  ['Most people get sleep wrong', 'sleep'],
  ['5 ways to save money on groceries', 'saving money on groceries'],
  ['What is a Roth IRA', 'what a Roth IRA is'],
  ['Meal prep for busy parents', 'meal prep'],
  ['The history of the Roman empire', 'the history of the Roman empire'],
];

const STYLES: ContentStyle[] = ['professional', 'energetic', 'calm', 'inspirational', 'entertaining'];
const NUMBER_WORDS =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|million|percent)\b/i;
/** Shapes of a list the script would have to fill: ordinals, "tip one", "step 2", "number three", "#1". */
const LISTED_ITEM =
  /\b(first(ly)?|second(ly)?|third(ly)?|fourth|fifth|finally|next tip|last tip)\b|\b(tip|step|way|reason|rule|number|item)\s+(#?\d+|one|two|three|four|five)\b|#\d/i;
/** Claims of knowledge the template cannot have. */
const KNOWING =
  /\b(studies|research|scientists|experts|proven|the truth is|the secret|the answer is|here's why|here's how|the key is|in fact)\b/i;

function briefWords(brief: string): Set<string> {
  return new Set(brief.toLowerCase().match(/[\p{L}\p{N}%$]+/gu) ?? []);
}

describe('subject of a bare topic', () => {
  for (const [topic, subject] of SUBJECTS)
    test(`"${topic}" is about "${subject}"`, () => {
      assert.equal(topicSubject(analyzeBrief({ topic })).phrase, subject);
    });
});

describe('a bare topic: honest template script', () => {
  for (const [topic, subject] of SUBJECTS)
    test(`"${topic}": names the topic, states nothing the brief did not say`, () => {
      const own = briefWords(topic);
      for (const contentPurpose of CONTENT_PURPOSES)
        for (const contentStyle of STYLES)
          for (const includeHook of [undefined, true, false])
            for (const durationSec of [15, 30, 60]) {
              const input: ScriptInput = { topic, contentPurpose, contentStyle, includeHook, durationSec };
              const r = writeLocalScript(input);
              const label = `${JSON.stringify(input)}\n${r.script}`;
              assert.equal(r.source, 'template', label);
              assert.ok(r.script.toLowerCase().includes(subject.toLowerCase()), `names the topic: ${label}`);
              // Digits and number words only where the brief has them ("2026"), never a count of its own.
              for (const digit of r.script.match(/\d+/g) ?? []) assert.ok(own.has(digit), label);
              // "this one", "one of the": a pronoun, not a count.
              const numberWord = NUMBER_WORDS.exec(r.script.replace(/\b(this one|one of)\b/gi, ''))?.[0];
              assert.ok(numberWord === undefined || own.has(numberWord.toLowerCase()), label);
              assert.doesNotMatch(r.script, LISTED_ITEM, label);
              assert.doesNotMatch(r.script, KNOWING, label);
              assert.deepEqual(
                findFigures(r.script).filter((f) => !f.values.every((v) => own.has(String(v)))),
                [],
                label,
              );
              // Well-formed: whole sentences, none repeated, within the budget.
              for (const sentence of r.sentences) assert.match(sentence, /^[A-Z"'].*[.?!]$/, label);
              assert.equal(new Set(r.sentences).size, r.sentences.length, label);
              assert.doesNotMatch(r.script, /[{}[\]<>]|\bundefined\b|\s[,.?!]|\.\./, label);
              assert.ok(r.wordCount <= scriptBudget({ durationSec }).maxWords, label);
              assert.ok(r.sentences.length >= 2, label);
            }
    });

  test('the title names the topic and promises no list', () => {
    const r = writeLocalScript({ topic: 'Three tips for better sleep', contentPurpose: 'sales' });
    assert.equal(r.title, 'Better Sleep');
    const [text, tags] = r.description.split('\n\n');
    assert.doesNotMatch(text!, /three|tips?\b/i);
    assert.ok(!r.hashtags.includes('#Three') && !r.hashtags.includes('#Tips'), tags);
  });

  test('a list brief asks the viewer for theirs instead of inventing them', () => {
    const scripts = [1, 2, 3, 4, 5, 6, 7, 8].map(
      (seed) => writeLocalScript({ topic: 'Three tips for better sleep', seed, durationSec: 30 }).script,
    );
    assert.ok(
      scripts.some((s) => /your best tip|which tip has worked/i.test(s)),
      scripts.join('\n---\n'),
    );
  });

  test("the brief's own statement, product and audience are said; nothing else is claimed", () => {
    const statement = writeLocalScript({ topic: 'Most people get sleep wrong', durationSec: 30, seed: 2 });
    assert.match(statement.script, /most people get sleep wrong/i);
    const product = writeLocalScript({
      topic: 'our new project-management app Taskly for remote teams',
      contentPurpose: 'sales',
      durationSec: 30,
      seed: 4,
    });
    assert.match(product.script, /Taskly\b.{0,8}\ba project-management app for remote teams\./);
    assert.doesNotMatch(product.script, /we built|we sweated|customers|results/i);
  });

  test("the request's cta closes the script instead of the template's own closing line", () => {
    const r = writeLocalScript({
      topic: 'Why cats purr',
      cta: 'Follow @catfacts for more.',
      durationSec: 30,
    });
    assert.equal(r.script.split('\n').at(-1), 'Follow @catfacts for more.');
    assert.doesNotMatch(r.script, /in the comments/);
  });

  test("a brand kit's proof point that speaks to the topic is said, and the script is then material", () => {
    const kit = scriptBrandContext({
      proof_points: [{ claim: 'Our sleep coaching helped 2,000 clients fall asleep faster' }],
    });
    const on = writeLocalScript({ topic: 'Three tips for better sleep', durationSec: 30, brandContext: kit });
    assert.equal(on.source, 'material');
    assert.match(on.script, /Our sleep coaching helped 2,000 clients fall asleep faster\./);
    const off = writeLocalScript({ topic: 'How to start running', durationSec: 30, brandContext: kit });
    assert.equal(off.source, 'template');
    assert.doesNotMatch(off.script, /2,000/);
  });

  test('a brief with its own points is still woven from them', () => {
    const r = writeLocalScript({
      prompt: 'Why you should start investing early. Mention the rule of 72.',
      durationSec: 30,
    });
    assert.equal(r.source, 'template');
    assert.match(r.script, /rule of 72/);
  });

  test('a sent script is the request', () => {
    assert.equal(writeLocalScript({ script: 'Cats purr when they are calm.' }).source, 'request');
  });
});

describe('material: an article is narrated from its own sentences', () => {
  test("every narrated sentence but the title and the cta is the article's", () => {
    const text = [
      'Reef sharks rest in caves during the day. Divers in Belize counted 41 of them in one cave system.',
      'The caves hold water with more oxygen than the open reef. Biologists think that is why the sharks stay still there.',
      'Nobody has filmed them leaving at night yet.',
    ].join('\n\n');
    const narration = articleNarration({
      title: 'Why reef sharks sleep in caves',
      text,
      cta: 'Follow for more ocean stories.',
      durationSec: 30,
      voiceSpeed: 1,
    })!;
    const sentences = splitSentences(narration.script).filter(
      (s) => !/reef sharks sleep in caves|Follow for more/.test(s),
    );
    assert.ok(sentences.length >= 3, narration.script);
    for (const s of sentences) assert.ok(text.includes(s), `"${s}" is not in the article`);
  });
});
