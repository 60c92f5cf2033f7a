import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoLanguageOf, normalizeLanguageTag } from './language-codes.ts';

void test('isoLanguageOf maps espeak codes to ISO 639-1', () => {
  const cases: [string, string][] = [
    ['en-us', 'en'],
    ['en-gb-scotland', 'en'],
    ['es-419', 'es'],
    ['fr-fr', 'fr'],
    ['pt-br', 'pt'],
    ['de', 'de'],
    ['cmn', 'zh'],
    ['cmn-latn-pinyin', 'zh'],
    ['yue', 'zh'],
    ['hyw', 'hy'],
    ['jbo', 'jbo'],
  ];
  for (const [code, iso] of cases) assert.equal(isoLanguageOf(code), iso, code);
});

void test('normalizeLanguageTag lower-cases and uses hyphens', () => {
  assert.equal(normalizeLanguageTag(' pt_BR '), 'pt-br');
  assert.equal(normalizeLanguageTag('en-US'), 'en-us');
});
