import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitScript, spokenForm } from './script-words.ts';

void test('splits sentences and keeps each word as written, with its break', () => {
  assert.deepEqual(splitScript('Honey never spoils, ever. Bees make it!', 'en'), [
    {
      text: 'Honey never spoils, ever.',
      words: [
        { text: 'Honey', spoken: 'honey' },
        { text: 'never', spoken: 'never' },
        { text: 'spoils,', spoken: 'spoils', breakAfter: 'clause' },
        { text: 'ever.', spoken: 'ever', breakAfter: 'sentence' },
      ],
    },
    {
      text: 'Bees make it!',
      words: [
        { text: 'Bees', spoken: 'bees' },
        { text: 'make', spoken: 'make' },
        { text: 'it!', spoken: 'it', breakAfter: 'sentence' },
      ],
    },
  ]);
});

void test('punctuation-only tokens stay attached to a neighbouring word', () => {
  const words = splitScript('“ Wait — it’s 2024… really?', 'en').flatMap((s) => s.words);
  assert.deepEqual(
    words.map((w) => [w.text, w.spoken, w.breakAfter ?? null]),
    [
      ['“Wait —', 'wait', 'clause'],
      ['it’s', "it's", null],
      ['2024…', '2024', 'clause'],
      ['really?', 'really', 'sentence'],
    ],
  );
});

void test('a lone abbreviation stays with the sentence after it', () => {
  assert.deepEqual(
    splitScript('Dr. Smith arrived late. He left.', 'en').map((s) => s.text),
    ['Dr. Smith arrived late.', 'He left.'],
  );
});

void test('languages written without spaces are split into words', () => {
  assert.deepEqual(
    splitScript('我们今天去公园。天气很好！', 'zh').map((s) => s.words.map((w) => w.text)),
    [
      ['我们', '今天', '去', '公园。'],
      ['天气', '很好！'],
    ],
  );
});

void test('spokenForm strips surrounding punctuation and lower-cases', () => {
  const cases: [string, string][] = [
    ['¿Cómo', 'cómo'],
    ['(NASA’s)', "nasa's"],
    ['well-known,', 'well-known'],
    ['$5.50', '5.50'],
  ];
  for (const [token, spoken] of cases) assert.equal(spokenForm(token), spoken, token);
});

void test('text without words gives no sentences', () => {
  assert.deepEqual(splitScript(' … — ', 'en'), []);
});
