import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../platform/errors.ts';
import { assertStorableFields, unstorableTextProblem } from './storable-text.ts';

test('unstorableTextProblem finds NUL and unpaired surrogates only', () => {
  const cases: [string, RegExp | undefined][] = [
    ['plain text', undefined],
    ['crêpe ☕ 😀 \u0001 \u007f \uffff', undefined],
    ['a\u0000', /NUL character \(\\u0000\) at position 1/],
    ['\ud800', /unpaired UTF-16 surrogate \(\\ud800\) at position 0/],
    ['😀\udc00', /unpaired UTF-16 surrogate \(\\udc00\) at position 2/],
    ['\ud83d\ud83d\ude00', /\(\\ud83d\) at position 0/],
  ];
  for (const [text, expected] of cases) {
    const problem = unstorableTextProblem(text);
    if (expected) assert.match(problem ?? '', expected, JSON.stringify(text));
    else assert.equal(problem, undefined, JSON.stringify(text));
  }
});

test('assertStorableFields names the first unstorable parameter, in single values and lists', () => {
  assert.doesNotThrow(() => assertStorableFields({ q: 'harbour', tag: ['a', 'b'] }));
  assert.doesNotThrow(() => assertStorableFields(undefined));
  for (const fields of [{ q: 'x\u0000' }, { tag: ['ok', '\ud800'] }]) {
    assert.throws(
      () => assertStorableFields(fields),
      (error: unknown) =>
        error instanceof ApiError &&
        error.status === 400 &&
        (error.details as { fields: { field: string }[] }).fields[0]!.field === Object.keys(fields)[0],
    );
  }
});
