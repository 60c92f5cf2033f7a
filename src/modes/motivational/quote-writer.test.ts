import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countWords } from '../../media/script/budget.ts';
import { splitSentences } from '../../media/script/sentences.ts';
import { CLAIMS, HOOKS, QUOTE_THEMES, THEMES, TURNS } from './quote-library.ts';
import {
  motivationalNarration,
  themeForClipType,
  themeOfText,
  writeHook,
  writeQuote,
} from './quote-writer.ts';

void describe('writeQuote', () => {
  void test('the same seed writes the same quote; different seeds write many different ones', () => {
    assert.deepEqual(writeQuote({ seed: 'job_1' }), writeQuote({ seed: 'job_1' }));
    const quotes = new Set(Array.from({ length: 60 }, (_, i) => writeQuote({ seed: `job_${i}` }).quote));
    assert.ok(quotes.size >= 55, `${quotes.size} distinct quotes of 60`);
    const themes = new Set(Array.from({ length: 60 }, (_, i) => writeQuote({ seed: `job_${i}` }).theme));
    assert.ok(themes.size >= 6, `${themes.size} themes`);
  });

  void test('every quote is complete, capitalized, punctuated English of a speakable length', () => {
    for (let i = 0; i < 300; i++) {
      const { quote, theme } = writeQuote({ seed: `s${i}`, theme: QUOTE_THEMES[i % QUOTE_THEMES.length] });
      assert.ok(!/[{}]/.test(quote), quote);
      const words = countWords(quote);
      assert.ok(words >= 10 && words <= 50, `${words} words: ${quote}`);
      for (const sentence of splitSentences(quote)) assert.match(sentence, /^[A-Z].*[.!?]$/, quote);
      const vocabulary = THEMES[theme];
      const used = [
        ...vocabulary.acts,
        ...vocabulary.struggles,
        ...vocabulary.rewards,
        ...vocabulary.excuses,
        ...vocabulary.comforts,
        vocabulary.virtue,
      ];
      assert.ok(
        used.some((phrase) => quote.toLowerCase().includes(phrase.toLowerCase())) ||
          quote.includes('The person you want to become'),
        quote,
      );
    }
  });

  void test('the two sentences use different words of the theme', () => {
    for (let i = 0; i < 100; i++) {
      const { quote, theme } = writeQuote({ seed: `d${i}`, theme: 'discipline' });
      assert.equal(theme, 'discipline');
      for (const act of THEMES.discipline.acts) {
        const count = quote.toLowerCase().split(act.toLowerCase()).length - 1;
        assert.ok(count <= 1, `"${act}" twice in: ${quote}`);
      }
    }
  });

  void test('the library is a library: many claims, turns and hooks', () => {
    assert.ok(CLAIMS.length >= 10 && TURNS.length >= 6 && HOOKS.length >= 6);
  });
});

void describe('themes', () => {
  const texts: [string, string | undefined][] = [
    ['Fear is a liar. Be brave and take the leap.', 'courage'],
    ['Your daily habits and routine build the person you become.', 'discipline'],
    ['Every setback is a setup for your comeback.', 'resilience'],
    ['The sky is blue today.', undefined],
  ];
  for (const [text, theme] of texts)
    void test(`themeOfText: ${text}`, () => assert.equal(themeOfText(text), theme));
  void test('clip types that name a theme', () => {
    assert.equal(themeForClipType('mindset/discipline'), 'discipline');
    assert.equal(themeForClipType('mindset/stoic'), 'patience');
    assert.equal(themeForClipType('motivational'), undefined);
    assert.equal(writeQuote({ seed: 'x', theme: themeForClipType('mindset/growth') }).theme, 'growth');
  });
});

void describe('writeHook and motivationalNarration', () => {
  void test('hooks without a theme never name one', () => {
    for (let i = 0; i < 50; i++) assert.ok(!/[{}]/.test(writeHook({ seed: `h${i}` })));
    for (let i = 0; i < 50; i++) assert.ok(!/[{}]/.test(writeHook({ seed: `h${i}`, theme: 'focus' })));
  });

  void test('a sent quote is said verbatim, after a hook when includeHook', () => {
    const quote = 'Fear is a liar.   Be brave and take the leap.';
    const n = motivationalNarration({ quote, includeHook: true, seed: 'job_9' });
    assert.equal(n.quoteSource, 'sent');
    assert.equal(n.quote, 'Fear is a liar. Be brave and take the leap.');
    assert.equal(n.theme, 'courage');
    assert.equal(n.script, `${n.hook}\n${n.quote}`);
    const bare = motivationalNarration({ quote, includeHook: false, seed: 'job_9' });
    assert.equal(bare.script, 'Fear is a liar. Be brave and take the leap.');
    assert.equal(bare.hook, undefined);
  });

  void test('no quote: one is written for the clip type theme', () => {
    const n = motivationalNarration({ includeHook: true, clipType: 'mindset/resilience', seed: 'job_7' });
    assert.equal(n.quoteSource, 'written');
    assert.equal(n.theme, 'resilience');
    assert.equal(n.script.split('\n').length, 2);
    assert.equal(n.script.split('\n')[1], n.quote);
  });
});
