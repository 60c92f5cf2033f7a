import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptBrandContext } from './brand-context.ts';
import { findFigures } from './figures.ts';
import { ScriptLanguageUnsupportedError, writeLocalScript } from './local-writer.ts';
import { splitSentences } from './sentences.ts';
import type { ScriptInput } from './writer.ts';

const kit = scriptBrandContext({
  proof_points: [{ claim: 'Customers cut churn by 40%' }],
  banned_topics: ['spreadsheets'],
  cta: { text: 'Book a demo at acme.example.', url: 'https://acme.example/demo' },
});
const brief: ScriptInput = {
  prompt: 'how we cut churn by 40% in 6 months with weekly onboarding calls and fewer spreadsheets',
  contentPurpose: 'case_study',
  durationSec: 45,
};
const seeds = [1, 2, 3, 4, 5, 6, 7, 8];

function figures(script: string): string[] {
  return findFigures(script).map((f) => `${f.kind}:${f.values.join('|')}`);
}

test('under a kit, the only figures a written script states are those of its proof points', () => {
  const unpoliced = seeds.flatMap((seed) => figures(writeLocalScript({ ...brief, seed }).script));
  assert.ok(unpoliced.includes('count:6'), 'without a kit the brief\'s "6 months" is said');
  for (const seed of seeds) {
    const r = writeLocalScript({ ...brief, seed, brandContext: kit });
    assert.deepEqual(
      figures(r.script).filter((f) => f !== 'percent:40'),
      [],
      r.script,
    );
    // The brief's own words carry figures the kit does not back, so its topic is named without them.
    assert.match(r.script, /churn/, r.script);
  }
  const said = seeds.flatMap((seed) =>
    figures(writeLocalScript({ ...brief, seed, brandContext: kit }).script),
  );
  assert.ok(said.includes('percent:40'), 'the proof point figure may be said');
});

test('a kit without proof points gets scripts with no figures at all', () => {
  const bare = scriptBrandContext({});
  for (const seed of seeds)
    for (const contentPurpose of ['case_study', 'news', 'sales', 'education'] as const) {
      const r = writeLocalScript({ ...brief, contentPurpose, includeHook: true, seed, brandContext: bare });
      assert.deepEqual(findFigures(r.script), [], r.script);
    }
});

test("a written script never names the kit's banned topics", () => {
  const mentions = (script: string): boolean => /spreadsheets?/i.test(script);
  assert.ok(seeds.some((seed) => mentions(writeLocalScript({ ...brief, seed }).script)));
  for (const seed of seeds)
    assert.ok(!mentions(writeLocalScript({ ...brief, seed, brandContext: kit }).script), `seed ${seed}`);
});

test("the kit's cta is the exact last line, unless the request sends its own", () => {
  const r = writeLocalScript({ ...brief, seed: 3, brandContext: kit });
  assert.equal(r.script.split('\n').at(-1), 'Book a demo at acme.example.');
  assert.equal(r.ctaUsed, 'Book a demo at acme.example.');
  const own = writeLocalScript({ ...brief, seed: 3, cta: 'Follow for more.', brandContext: kit });
  assert.equal(own.script.split('\n').at(-1), 'Follow for more.');
  assert.ok(!own.script.includes('Book a demo'));
});

test('a sent script is narrated word for word: no cta added, no figure or topic removed', () => {
  const script = 'We grew 300% in 2023. Spreadsheets were the problem.';
  const r = writeLocalScript({ script, brandContext: kit });
  assert.equal(r.script, script);
  assert.equal(r.ctaUsed, null);
});

test("the kit's tone chooses the style when the request names none", () => {
  const bare = scriptBrandContext({});
  const provocative = scriptBrandContext({ tone: 'provocative' });
  const request: ScriptInput = { prompt: 'why sleep matters for athletes', durationSec: 30, seed: 11 };
  const byTone = writeLocalScript({ ...request, brandContext: provocative }).script;
  assert.equal(
    byTone,
    writeLocalScript({ ...request, contentStyle: 'energetic', brandContext: bare }).script,
  );
  assert.notEqual(byTone, writeLocalScript({ ...request, brandContext: bare }).script);
  assert.equal(
    writeLocalScript({ ...request, contentStyle: 'calm', brandContext: provocative }).script,
    writeLocalScript({ ...request, contentStyle: 'calm', brandContext: bare }).script,
  );
});

test("the kit's first language is the script language when the request sets none", () => {
  const german = scriptBrandContext({ languages: ['de', 'en'] });
  assert.throws(
    () => writeLocalScript({ prompt: 'why sleep matters', brandContext: german }),
    (err: unknown) => err instanceof ScriptLanguageUnsupportedError && err.language === 'de',
  );
  const r = writeLocalScript({ prompt: 'why sleep matters', language: 'en', brandContext: german });
  assert.ok(splitSentences(r.script).length > 2);
});
