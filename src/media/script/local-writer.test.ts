import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeBrief } from './brief-analysis.ts';
import { scriptBudget, ScriptTooLongError } from './budget.ts';
import { LocalScriptWriter, ScriptLanguageUnsupportedError, writeLocalScript } from './local-writer.ts';
import { splitSentences } from './sentences.ts';
import { CONTENT_PURPOSES, type ContentPurpose, type ContentStyle, type ScriptInput } from './writer.ts';

interface Brief {
  prompt: string;
  /** Words the script must contain whatever its length. */
  mustContain: string[];
}

// Briefs with points of their own: every point is said when the budget allows, and the script stops there
// rather than pad. Bare topics: topic-template.test.ts.
const BRIEFS: Brief[] = [
  {
    prompt:
      'how compound interest grows savings. Mention the rule of 72. Mention that starting early matters most. Show how $100 a month grows over 30 years.',
    mustContain: ['compound interest'],
  },
  {
    prompt:
      'our new project-management app Taskly for remote teams. Mention the daily digest. Highlight shared boards. Mention the mobile app.',
    mustContain: ['Taskly'],
  },
  {
    prompt:
      'why sleep matters for athletes. Mention that deep sleep repairs muscle. Mention naps before games. Mention a dark, cool bedroom.',
    mustContain: ['sleep'],
  },
  {
    prompt:
      'how Acme cut support costs by 40% with automation. Mention the chatbot. Mention faster replies. Mention the weekly reports.',
    mustContain: ['Acme'],
  },
];
const STYLES: ContentStyle[] = [
  'professional',
  'energetic',
  'calm',
  'inspirational',
  'entertaining',
  'educational',
];
const DURATIONS = [15, 30, 60, 120];
const SPEEDS = [0.7, 1.0, 1.3];
const BRAND = { name: 'Brightside', websiteUrl: 'https://www.brightside.example/' };
const CTA = 'Follow for a new tip every week.';

const FORBIDDEN = /[[\]{}<>]|lorem|ipsum|\bundefined\b|\bnull\b|\bNaN\b|\bTODO\b/;

/** Runs the grid for one purpose and style; `variant` rotates hook/cta/website options across the grid. */
function checkGrid(purpose: ContentPurpose, style: ContentStyle): void {
  let variant = 0;
  for (const brief of BRIEFS) {
    for (const durationSec of DURATIONS) {
      for (const voiceSpeed of SPEEDS) {
        variant++;
        const includeHook = [undefined, true, false][variant % 3];
        const cta = variant % 2 === 0 ? CTA : undefined;
        const brand = variant % 4 < 2 ? BRAND : undefined;
        const input: ScriptInput = {
          prompt: brief.prompt,
          contentPurpose: purpose,
          contentStyle: style,
          durationSec,
          voiceSpeed,
          includeHook,
          cta,
          brand,
        };
        const label = JSON.stringify({
          prompt: brief.prompt,
          durationSec,
          voiceSpeed,
          includeHook,
          cta: !!cta,
          brand: !!brand,
        });
        const r = writeLocalScript(input);
        const budget = scriptBudget({ durationSec, voiceSpeed });
        const lines = r.script.split('\n');

        // Short of the budget only once every point of the brief is said: the writer does not pad.
        const points = analyzeBrief({ prompt: brief.prompt }).points;
        const saidAll = points.every((p) => r.script.toLowerCase().includes(p.text.toLowerCase()));
        assert.ok(
          (r.wordCount >= budget.minWords || saidAll) && r.wordCount <= budget.maxWords,
          `${label}: ${r.wordCount} words, budget ${budget.targetWords}\n${r.script}`,
        );
        for (const word of brief.mustContain)
          assert.ok(
            r.script.toLowerCase().includes(word.toLowerCase()),
            `${label}: missing "${word}"\n${r.script}`,
          );
        assert.doesNotMatch(r.script, FORBIDDEN, label);
        assert.doesNotMatch(r.title + r.description, FORBIDDEN, label);
        assert.equal(new Set(lines).size, lines.length, `${label}: a line is repeated\n${r.script}`);
        if (cta) {
          assert.equal(lines.at(-1), cta, label);
          assert.equal(r.ctaUsed, cta);
        } else if (brand && r.wordCount + 3 <= budget.maxWords) {
          // The website closes whenever its three words fit the budget.
          assert.match(
            lines.at(-1)!,
            /brightside\.example/,
            `${label}: closing line should name the website\n${r.script}`,
          );
          assert.equal(r.ctaUsed, null);
        }
        // A hook opens the script when asked for; no opening line at all with include_hook false.
        assert.equal(r.hookUsed, includeHook === true ? lines[0] : null, label);
        if (includeHook === false)
          assert.ok(!/^(let's talk|this one is|a quick word|today's topic|next up)/i.test(lines[0]!), label);
        assert.deepEqual(r.sentences, splitSentences(r.script));
        assert.equal(r.writer, 'local');
      }
    }
  }
}

for (const purpose of CONTENT_PURPOSES) {
  describe(`local writer: ${purpose}`, () => {
    for (const style of STYLES) test(style, () => checkGrid(purpose, style));
  });
}

describe('local writer behaviour', () => {
  test('the same seed gives the same script; other seeds vary the wording', () => {
    const base: ScriptInput = { prompt: 'how compound interest grows savings', durationSec: 60 };
    assert.equal(
      writeLocalScript({ ...base, seed: 1 }).script,
      writeLocalScript({ ...base, seed: 1 }).script,
    );
    const variants = new Set([1, 2, 3, 4, 5, 6].map((seed) => writeLocalScript({ ...base, seed }).script));
    assert.ok(variants.size >= 4, `only ${variants.size} distinct scripts`);
  });

  test('the brief’s own points are woven in', () => {
    const r = writeLocalScript({
      prompt:
        'Why you should start investing early. Mention the rule of 72. Show how $100 a month grows over 30 years.',
      durationSec: 45,
    });
    assert.match(r.script, /rule of 72/);
    assert.match(r.script, /\$100 a month grows over 30 years/);
  });

  test('a style changes the wording', () => {
    const base: ScriptInput = { prompt: 'why sleep matters for athletes', durationSec: 30, seed: 7 };
    const calm = writeLocalScript({ ...base, contentStyle: 'calm' }).script;
    const energetic = writeLocalScript({ ...base, contentStyle: 'energetic' }).script;
    assert.notEqual(calm, energetic);
    const avg = (s: string): number => s.split(/\s+/).length / splitSentences(s).length;
    assert.ok(
      avg(energetic) < avg(calm),
      `energetic ${avg(energetic)} vs calm ${avg(calm)} words per sentence`,
    );
  });

  test('a brand tone picks the style when none is given', () => {
    const base: ScriptInput = { prompt: 'why sleep matters for athletes', seed: 3 };
    assert.equal(
      writeLocalScript({ ...base, brand: { tone: 'calm and gentle' } }).script,
      writeLocalScript({ ...base, contentStyle: 'calm' }).script,
    );
  });

  test('other languages need an LLM unless a script is sent', () => {
    assert.throws(
      () => writeLocalScript({ prompt: 'wie Zinseszins funktioniert', language: 'de' }),
      (err: unknown) =>
        err instanceof ScriptLanguageUnsupportedError &&
        err.language === 'de' &&
        /"en"/.test(err.message) &&
        /LLM/.test(err.message),
    );
    const sent = writeLocalScript({
      script: 'Zinseszins lässt Ersparnisse wachsen. Fang früh an!',
      language: 'de',
    });
    assert.equal(sent.script, 'Zinseszins lässt Ersparnisse wachsen. Fang früh an!');
    assert.equal(sent.wordCount, 7);
  });

  test('a sent script is narrated word for word, longer than the duration if need be, and the cta is ignored', async () => {
    const script = Array.from({ length: 40 }, () => 'Saving early pays off over time.').join(' ');
    const r = await new LocalScriptWriter().write({
      script,
      durationSec: 15,
      cta: 'Follow us',
      includeHook: true,
    });
    assert.equal(r.script, script);
    assert.equal(r.wordCount, 240);
    assert.equal(r.ctaUsed, null);
    assert.equal(r.hookUsed, null);
    assert.ok(r.title.length <= 70);
  });

  test('a sent script over the 120 s budget is refused with the budget', () => {
    const script = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    assert.throws(
      () => writeLocalScript({ script }),
      (err: unknown) => err instanceof ScriptTooLongError && err.maxWords === 267 && err.words === 300,
    );
  });
});

void describe('takes of one brief (variations)', () => {
  const lines = (script: string): Set<string> => new Set(script.split('\n'));
  const takes = (topic: string, durationSec: number, count: number): string[] =>
    Array.from(
      { length: count },
      (_, index) =>
        writeLocalScript({ topic, durationSec, includeHook: true, take: { index, count } }).script,
    );
  for (const topic of ['how a short walk after lunch helps focus', 'three tips for better sleep'])
    for (const durationSec of [15, 30]) {
      void test(`three takes of "${topic}" at ${durationSec} s share less than half their lines pairwise`, () => {
        const scripts = takes(topic, durationSec, 3);
        for (let i = 0; i < scripts.length; i++)
          for (let j = i + 1; j < scripts.length; j++) {
            const a = lines(scripts[i]!);
            const b = lines(scripts[j]!);
            const shared = [...b].filter((line) => a.has(line));
            assert.ok(
              shared.length * 2 < Math.min(a.size, b.size),
              `takes ${i} and ${j} share ${shared.join(' | ')}`,
            );
          }
      });
      void test(`five takes of "${topic}" at ${durationSec} s are five scripts`, () => {
        assert.equal(new Set(takes(topic, durationSec, 5)).size, 5);
      });
    }

  void test('a take is the same script however often it is written', () => {
    const input: ScriptInput = { topic: 'why sleep matters for athletes', take: { index: 2, count: 3 } };
    assert.equal(writeLocalScript(input).script, writeLocalScript(input).script);
  });
});
