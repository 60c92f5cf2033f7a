import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeWords, type TimedWords, type WordTimer, type WordTimingRequest } from './word-timer.ts';

const request: WordTimingRequest = {
  audioPath: '/unused.wav',
  language: 'en',
  segments: [{ start: 0, end: 1, words: [{ text: 'Hi', spoken: 'hi', breakAfter: 'sentence' }] }],
};

function timer(
  source: TimedWords['source'],
  languages: string[],
  result: TimedWords | Error,
): WordTimer & { calls: number } {
  const t = {
    source,
    calls: 0,
    supports: (language: string) => languages.includes(language),
    time: async () => {
      t.calls++;
      if (result instanceof Error) throw result;
      return result;
    },
  };
  return t;
}

const aligned: TimedWords = {
  words: [{ word: 'Hi', start: 0.1, end: 0.4 }],
  source: 'aligned',
  interpolated: 0,
};
const estimated: TimedWords = {
  words: [{ word: 'Hi', start: 0, end: 0.5 }],
  source: 'sentence-estimated',
  interpolated: 0,
};

void test('the first timer that supports the language is used', async () => {
  const first = timer('aligned', ['en'], aligned);
  const second = timer('sentence-estimated', ['en', 'es'], estimated);
  assert.deepEqual(await timeWords(request, [first, second]), { ...aligned, fallbacks: [] });
  assert.equal(second.calls, 0);
  assert.deepEqual(await timeWords({ ...request, language: 'es' }, [first, second]), {
    ...estimated,
    fallbacks: [],
  });
});

void test('a failing timer falls back to the next and says why', async () => {
  const result = await timeWords(request, [
    timer('aligned', ['en'], new Error('pocketsphinx_batch exited with 1')),
    timer('sentence-estimated', ['en'], estimated),
  ]);
  assert.deepEqual(result.fallbacks, [{ source: 'aligned', reason: 'pocketsphinx_batch exited with 1' }]);
  assert.equal(result.source, 'sentence-estimated');
});

void test('an aligner that interpolated most words gives way to the next timer', async () => {
  const poor: TimedWords = { ...aligned, interpolated: 1 };
  const result = await timeWords(request, [
    timer('aligned', ['en'], poor),
    timer('sentence-estimated', ['en'], estimated),
  ]);
  assert.deepEqual(result.fallbacks, [{ source: 'aligned', reason: 'interpolated 1/1 words' }]);
  assert.equal(result.source, 'sentence-estimated');
  assert.deepEqual(await timeWords(request, [timer('aligned', ['en'], poor)]), { ...poor, fallbacks: [] });
});

void test("the last timer's error, an abort, or no supporting timer is an error", async () => {
  await assert.rejects(timeWords(request, [timer('aligned', ['en'], new Error('broken'))]), /broken/);
  const controller = new AbortController();
  controller.abort();
  const later = timer('sentence-estimated', ['en'], estimated);
  await assert.rejects(
    timeWords({ ...request, signal: controller.signal }, [
      timer('aligned', ['en'], new Error('aborted')),
      later,
    ]),
    /aborted/,
  );
  assert.equal(later.calls, 0);
  await assert.rejects(
    timeWords({ ...request, language: 'xx' }, [timer('aligned', ['en'], aligned)]),
    /language "xx"/,
  );
});
